import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../src/areas.ts';

const ROOT = join(import.meta.dirname, '..');

describe('the list of areas', () => {
  it('names every folder under src/areas once, by its folder name', () => {
    const folders = readdirSync(join(ROOT, 'src/areas'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(AREAS.map((area) => area.name).sort()).toEqual(folders);
  });

  it('gives every area with built operations or back-office routes its docs page, which exists', () => {
    const built = AREAS.filter(
      (area) => area.operations.some((op) => op.handler) || (area.adminRoutes ?? []).length > 0,
    );
    expect(built.length).toBeGreaterThan(0);
    for (const area of built) {
      expect(area.docs, `${area.name} names no docs page`).toMatch(/^docs\/[a-z-]+\.md$/);
      expect(existsSync(join(ROOT, area.docs ?? '')), `${area.docs} of ${area.name}`).toBe(true);
    }
  });
});
