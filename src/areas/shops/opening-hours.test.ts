import { describe, expect, it } from 'vitest';
import type { FieldError } from '../../kernel/errors.ts';
import {
  checkExceptions,
  checkWeeklyHours,
  exceptionsFromJson,
  exceptionsToJson,
  weeklyFromJson,
  weeklyToJson,
} from './opening-hours.ts';

describe('opening hours', () => {
  it('sorts intervals, keeps several a day and shows all seven weekdays', () => {
    const errors: FieldError[] = [];
    const weekly = checkWeeklyHours(
      [
        { weekday: 6, hours: [{ opens: '10:00', closes: '17:00' }] },
        {
          weekday: 1,
          hours: [
            { opens: '13:30', closes: '18:00' },
            { opens: '09:00', closes: '12:30' },
          ],
        },
      ],
      errors,
    );
    expect(errors).toEqual([]);
    const wire = weeklyFromJson(weeklyToJson(weekly));
    expect(wire).toHaveLength(7);
    expect(wire[0]).toEqual({
      WEEKDAY: 1,
      HOURS: [
        { OPENS: '09:00', CLOSES: '12:30' },
        { OPENS: '13:30', CLOSES: '18:00' },
      ],
    });
    expect(wire[1]).toEqual({ WEEKDAY: 2, HOURS: [] });
    expect(wire[5]?.HOURS).toEqual([{ OPENS: '10:00', CLOSES: '17:00' }]);
  });

  // Weekdays 1 to 7 and times HH:MM are the schema's: admin-shops.test.ts sends them over HTTP.
  it('names every interval out of order, overlap and repeat', () => {
    const errors: FieldError[] = [];
    checkWeeklyHours(
      [
        { weekday: 1, hours: [] },
        { weekday: 2, hours: [{ opens: '09:00', closes: '24:00' }] },
        { weekday: 3, hours: [{ opens: '12:00', closes: '11:00' }] },
        {
          weekday: 4,
          hours: [
            { opens: '09:00', closes: '13:00' },
            { opens: '12:00', closes: '18:00' },
          ],
        },
        { weekday: 4, hours: [] },
        { weekday: 5, hours: [{ opens: '18:00', closes: '24:00' }] },
      ],
      errors,
    );
    expect(errors.map((e) => e.name)).toEqual([
      '/OPENINGHOURS/2/HOURS/0/CLOSES',
      '/OPENINGHOURS/3/HOURS',
      '/OPENINGHOURS/4/WEEKDAY',
    ]);
  });

  it('keeps exceptions per date, closed when without hours, and refuses bad or repeated dates', () => {
    const errors: FieldError[] = [];
    const exceptions = checkExceptions(
      [
        {
          date: '2026-12-31',
          hours: [{ opens: '09:00', closes: '16:00' }],
          description: { LANGUAGE_2: 'New Year’s Eve' },
        },
        { date: '2026-12-25', hours: [], description: { LANGUAGE_2: 'Christmas' } },
      ],
      errors,
    );
    expect(errors).toEqual([]);
    const wire = exceptionsFromJson(exceptionsToJson(exceptions));
    expect(wire.map((e) => e.DATE)).toEqual(['2026-12-25', '2026-12-31']);
    expect(wire[0]).toMatchObject({ HOURS: [], DESCRIPTION: { LANGUAGE_2: 'Christmas', LANGUAGE_1: '' } });

    checkExceptions(
      [
        { date: '2026-02-30', hours: [], description: {} },
        { date: '2026-05-01', hours: [], description: {} },
        { date: '2026-05-01', hours: [], description: {} },
      ],
      errors,
    );
    expect(errors.map((e) => e.name)).toEqual(['/EXCEPTIONS/0/DATE', '/EXCEPTIONS/2/DATE']);
  });
});
