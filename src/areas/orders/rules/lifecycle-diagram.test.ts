import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIFECYCLE } from './lifecycle.ts';
import { LIFECYCLE_END, LIFECYCLE_START, withLifecycleSection } from './lifecycle-doc.ts';

const DOC = new URL('../../../../docs/orders.md', import.meta.url);

describe('docs/orders.md', () => {
  it('holds exactly the diagram and the moves the lifecycle table gives', () => {
    const text = readFileSync(DOC, 'utf8');
    expect(text, 'run npm run orders:diagram').toBe(withLifecycleSection(text));
  });

  it('draws every row of the table as one edge, and the terminal states as ends', () => {
    const text = readFileSync(DOC, 'utf8');
    const section = text.slice(text.indexOf(LIFECYCLE_START), text.indexOf(LIFECYCLE_END));
    const edges = section.split('\n').filter((l) => l.includes(' --> '));
    expect(edges).toHaveLength(LIFECYCLE.length + 2);
    expect(edges).toContain('  [*] --> NEW : place');
    expect(edges).toContain('  PARTIALLY_DELIVERED --> CLOSED : close');
    expect(edges).toContain('  CANCELLED --> [*]');
    expect(section).toContain('| PARTIALLY_DELIVERED | `close` | CLOSED |');
  });

  it('refuses a file without its markers', () => {
    expect(() => withLifecycleSection('# Orders\n')).toThrow(/lacks the lifecycle markers/);
  });
});
