/**
 * Writes the lifecycle section of docs/orders.md (a Mermaid state diagram and the table of moves)
 * from the lifecycle table in src/areas/orders/rules/lifecycle.ts: `npm run orders:diagram`. With
 * `--check` it only says whether the section is current
 * (src/areas/orders/rules/lifecycle-diagram.test.ts checks the same).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { withLifecycleSection } from '../src/areas/orders/rules/lifecycle-doc.ts';

const FILE = new URL('../docs/orders.md', import.meta.url);

const text = readFileSync(FILE, 'utf8');
const fresh = withLifecycleSection(text);
if (process.argv.includes('--check')) {
  if (fresh !== text) {
    console.error('docs/orders.md: the lifecycle section is out of date; run npm run orders:diagram');
    process.exit(1);
  }
} else if (fresh !== text) {
  writeFileSync(FILE, fresh);
  console.log('docs/orders.md: lifecycle section written');
} else {
  console.log('docs/orders.md: lifecycle section already current');
}
