import type { FieldError } from '../../kernel/errors.ts';
import {
  fromLanguageJson,
  type LanguageObject,
  type LanguageText,
  toLanguageJson,
} from '../../kernel/language.ts';

/**
 * Opening hours of a shop (docs/shops.md): per ISO weekday (1 Monday .. 7 Sunday) any number of
 * intervals [opens, closes) in the shop's local time; a weekday without intervals is closed.
 * Exceptions per date (holidays, late openings) replace that day's weekly hours; an exception
 * without intervals means closed all day.
 */
export interface Interval {
  /** HH:MM, 00:00 to 23:59. */
  opens: string;
  /** HH:MM after `opens`, up to 24:00 (midnight at the end of the day). */
  closes: string;
}

export interface WeeklyInterval extends Interval {
  weekday: number;
}

export interface HoursException {
  /** YYYY-MM-DD. */
  date: string;
  hours: Interval[];
  description: LanguageText;
}

export const MAX_INTERVALS_PER_DAY = 6;
export const MAX_EXCEPTIONS = 400;

const TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;

function minutes(time: string, allowMidnight: boolean): number | null {
  if (allowMidnight && time === '24:00') return 24 * 60;
  const m = TIME.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** A calendar day YYYY-MM-DD that exists. */
export function isDay(value: string): boolean {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * Checks the intervals of one day (named `name/<i>/...` in errors) and returns them sorted by
 * opening time; intervals may touch (12:00-12:00) but not overlap. Their number and the form of the
 * times are the request schema's (ShopBody); a time that is not HH:MM is named all the same.
 */
function checkDay(intervals: Interval[], name: string, errors: FieldError[]): Interval[] {
  const valid: Array<Interval & { from: number; to: number }> = [];
  for (const [i, interval] of intervals.entries()) {
    const from = minutes(interval.opens, false);
    const to = minutes(interval.closes, true);
    if (from === null || to === null) {
      errors.push({ name: `${name}/${i}`, message: 'times are HH:MM (24:00 for midnight)' });
      continue;
    }
    if (to <= from) {
      errors.push({ name: `${name}/${i}/CLOSES`, message: 'must be after OPENS' });
      continue;
    }
    valid.push({ opens: interval.opens, closes: interval.closes, from, to });
  }
  valid.sort((a, b) => a.from - b.from);
  for (let i = 1; i < valid.length; i++) {
    const previous = valid[i - 1];
    const current = valid[i];
    if (previous && current && current.from < previous.to) {
      errors.push({
        name,
        message: `${previous.opens}-${previous.closes} overlaps ${current.opens}-${current.closes}`,
      });
    }
  }
  return valid.map(({ opens, closes }) => ({ opens, closes }));
}

/** Checks weekly hours (weekdays 1 to 7: the schema's) and returns them sorted by weekday and opening time. */
export function checkWeeklyHours(
  days: Array<{ weekday: number; hours: Interval[] }>,
  errors: FieldError[],
): WeeklyInterval[] {
  const seen = new Set<number>();
  const out: WeeklyInterval[] = [];
  for (const [i, day] of days.entries()) {
    const name = `/OPENINGHOURS/${i}`;
    if (seen.has(day.weekday)) {
      errors.push({ name: `${name}/WEEKDAY`, message: `weekday ${day.weekday} repeats` });
      continue;
    }
    seen.add(day.weekday);
    for (const interval of checkDay(day.hours, `${name}/HOURS`, errors))
      out.push({ weekday: day.weekday, ...interval });
  }
  return out.sort((a, b) => a.weekday - b.weekday || a.opens.localeCompare(b.opens));
}

/** Checks exceptions (at most MAX_EXCEPTIONS: the schema's) and returns them sorted by date, each day's intervals sorted. */
export function checkExceptions(exceptions: HoursException[], errors: FieldError[]): HoursException[] {
  const seen = new Set<string>();
  const out: HoursException[] = [];
  for (const [i, e] of exceptions.entries()) {
    const name = `/EXCEPTIONS/${i}`;
    if (!isDay(e.date)) {
      errors.push({ name: `${name}/DATE`, message: 'must be a date YYYY-MM-DD' });
      continue;
    }
    if (seen.has(e.date)) {
      errors.push({ name: `${name}/DATE`, message: `${e.date} repeats` });
      continue;
    }
    seen.add(e.date);
    out.push({ date: e.date, hours: checkDay(e.hours, `${name}/HOURS`, errors), description: e.description });
  }
  return out.sort((a, b) => a.date.localeCompare(b.date));
}

// --- stored form (JSON text in shop_detail) and wire form -----------------------------------------

export function weeklyToJson(hours: WeeklyInterval[]): string {
  return JSON.stringify(hours.map((h) => [h.weekday, h.opens, h.closes]));
}

export function exceptionsToJson(exceptions: HoursException[]): string {
  return JSON.stringify(
    exceptions.map((e) => ({
      date: e.date,
      hours: e.hours.map((h) => [h.opens, h.closes]),
      description: toLanguageJson(e.description),
    })),
  );
}

export interface HoursWire {
  OPENS: string;
  CLOSES: string;
}
export interface WeekdayWire {
  WEEKDAY: number;
  HOURS: HoursWire[];
}
export interface ExceptionWire {
  DATE: string;
  HOURS: HoursWire[];
  DESCRIPTION: LanguageObject;
}

/** All seven weekdays, Monday first; a closed day has no HOURS. */
export function weeklyFromJson(json: string): WeekdayWire[] {
  const rows = JSON.parse(json) as Array<[number, string, string]>;
  return [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    WEEKDAY: weekday,
    HOURS: rows.filter((r) => r[0] === weekday).map((r) => ({ OPENS: r[1], CLOSES: r[2] })),
  }));
}

export function exceptionsFromJson(json: string): ExceptionWire[] {
  const rows = JSON.parse(json) as Array<{
    date: string;
    hours: Array<[string, string]>;
    description: string;
  }>;
  return rows.map((e) => ({
    DATE: e.date,
    HOURS: e.hours.map(([opens, closes]) => ({ OPENS: opens, CLOSES: closes })),
    DESCRIPTION: fromLanguageJson(e.description),
  }));
}
