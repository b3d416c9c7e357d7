import { type Actor, LIFECYCLE } from './lifecycle.ts';
import { TERMINAL_STATES } from './states.ts';

/**
 * The lifecycle section of docs/orders.md, made from the table in lifecycle.ts: a Mermaid diagram
 * and a table of the moves, between two markers. `npm run orders:diagram` writes it, and
 * lifecycle-diagram.test.ts fails when the file holds anything else, so the document cannot drift
 * from the rules.
 */
export const LIFECYCLE_START =
  '<!-- lifecycle:start (npm run orders:diagram writes this part from the table) -->';
export const LIFECYCLE_END = '<!-- lifecycle:end -->';

const WHO: Record<Actor, string> = {
  BACK_OFFICE: 'back office',
  CUSTOMER: 'wholesale customer',
  CLIENT: 'retail client',
  SYSTEM: 'system',
};

function diagram(): string {
  const edges = LIFECYCLE.map((m) => `  ${m.from ?? '[*]'} --> ${m.to} : ${m.action}`);
  const ends = TERMINAL_STATES.map((s) => `  ${s} --> [*]`);
  return ['```mermaid', 'stateDiagram-v2', ...edges, ...ends, '```'].join('\n');
}

function movesTable(): string {
  const rows = LIFECYCLE.map((m) => {
    const guards = m.guards.map((g) => `${g.says} (else \`${g.code.code}\`)`).join('; ') || '–';
    const who = m.actors.map((a) => WHO[a]).join(', ');
    return `| ${m.from ?? '(none)'} | \`${m.action}\` | ${m.to} | ${who} | ${guards} |`;
  });
  return ['| from | action | to | who may | guards |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The text of docs/orders.md with the lifecycle section between the markers made afresh. */
export function withLifecycleSection(text: string): string {
  const start = text.indexOf(LIFECYCLE_START);
  const end = text.indexOf(LIFECYCLE_END);
  if (start < 0 || end < start) throw new Error('docs/orders.md lacks the lifecycle markers');
  const section = `${diagram()}\n\n${movesTable()}`;
  return `${text.slice(0, start + LIFECYCLE_START.length)}\n${section}\n${text.slice(end)}`;
}
