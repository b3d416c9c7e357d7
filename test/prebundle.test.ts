import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { build, PREBUNDLED, plan } from '../bin/prebundle.js';
import { budget } from './helpers/cli.ts';

/**
 * `tv2` loads TypeBox and Kysely from one bundle each (bin/prebundle.js): the bundle must export
 * exactly what the packages export, for every specifier the sources import, and a `tv2` process
 * must resolve the packages to it.
 */

const ROOT = join(import.meta.dirname, '..');

/** The specifiers of the bundled packages that the sources import ("typebox/value", ...). */
function importedSpecifiers(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/from '([^'.][^']*)'/g)) {
          const spec = m[1]!;
          if (PREBUNDLED.some((name) => spec === name || spec.startsWith(`${name}/`))) found.add(spec);
        }
      }
    }
  };
  walk(join(ROOT, 'src'));
  return found;
}

describe('the prebundled dependencies', () => {
  const planned = plan();

  it('cover every specifier of the bundled packages that the sources import', () => {
    const imported = importedSpecifiers();
    expect(imported.has('typebox')).toBe(true);
    expect(imported.has('kysely')).toBe(true);
    for (const spec of imported) expect(Object.keys(planned.entries), spec).toContain(spec);
  });

  it('export what the packages export', { timeout: budget(1) }, async () => {
    const dir = build(planned);
    if (dir === undefined) return; // another process is building it right now
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, string>;
    for (const spec of importedSpecifiers()) {
      const bundled = await import(pathToFileURL(join(dir, manifest[spec]!)).href);
      const original = await import(spec);
      expect(Object.keys(bundled).sort(), spec).toEqual(Object.keys(original).sort());
    }
  });

  it('are what a tv2 process imports', { timeout: budget(1) }, async () => {
    const script = `
      const { usePrebundledDependencies } = await import('./bin/prebundle.js');
      const dir = usePrebundledDependencies();
      console.log(JSON.stringify({ dir, kysely: import.meta.resolve('kysely'), typebox: import.meta.resolve('typebox') }));
    `;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--input-type=module', '--eval', script],
        { cwd: ROOT, env: { ...process.env, TV2_PREBUNDLE: '' } },
        (error, out) => (error ? reject(error) : resolve(out)),
      ),
    );
    const { dir, kysely, typebox } = JSON.parse(stdout);
    if (dir === undefined) return; // another process was building it
    expect(kysely).toBe(pathToFileURL(join(dir, 'kysely.mjs')).href);
    expect(typebox).toBe(pathToFileURL(join(dir, 'typebox.mjs')).href);
  });
});
