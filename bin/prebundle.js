// Dependencies made of hundreds of small ES modules (TypeBox: about 700, Kysely: about 250) are
// loaded from one bundle each instead: Node resolves, reads and links every module of a graph one
// by one, and those two packages alone took half of the CPU of a start (docs/architecture.md,
// "Start-up and memory"). Vite pre-bundles dependencies for the same reason.
//
// The bundle is made with esbuild (tsx's own) from the installed packages, once per installed
// version, into node_modules/.cache/tv2/deps/<key>/; the key changes when a bundled package or
// esbuild is reinstalled, so a bundle is never older than the packages it was made from. Only the
// dependencies are bundled: the sources under src/ still run as they are, edited or not. Whatever
// fails (no esbuild, node_modules not writable, another process building the same bundle), this
// start resolves the packages as usual. TV2_PREBUNDLE=0 turns it off.
//
//   node bin/prebundle.js     builds the bundle now (e.g. when an image is made), prints its place
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The packages bundled: pure ES modules with many files each, and no native parts. */
export const PREBUNDLED = ['typebox', 'kysely'];

/** Bumped when the way bundles are made changes, so older ones are not used. */
const FORMAT = 1;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'tv2', 'deps');
/** A build older than this is taken to have died with its process. */
const STALE_BUILD_MS = 120_000;

function packageJsonOf(name) {
  const path = module.findPackageJSON(name, pathToFileURL(join(ROOT, 'package.json')));
  if (!path) throw new Error(`${name} is not installed`);
  return { path, json: JSON.parse(readFileSync(path, 'utf8')) };
}

/** The ES module files a package exports, by the specifier that imports them ("kysely/migration"). */
function entriesOf(name, path, json) {
  const entries = {};
  const exportsMap = typeof json.exports === 'object' && json.exports !== null ? json.exports : {};
  for (const [subpath, target] of Object.entries(exportsMap)) {
    if (subpath.includes('*') || !subpath.startsWith('.')) continue;
    const file = typeof target === 'string' ? target : (target?.import ?? target?.default);
    if (typeof file !== 'string' || !/\.m?js$/.test(file)) continue;
    entries[subpath === '.' ? name : `${name}${subpath.slice(1)}`] = join(dirname(path), file);
  }
  return entries;
}

/** tsx's esbuild: its package.json (for the key), and the module, loaded only to build. */
function esbuildOf() {
  const tsx = import.meta.resolve('tsx/esm/api');
  const path = module.findPackageJSON('esbuild', tsx);
  if (!path) throw new Error('esbuild is not installed');
  return {
    version: JSON.parse(readFileSync(path, 'utf8')).version,
    load: () => createRequire(tsx)('esbuild'),
  };
}

/** Where the bundle of the installed versions is, and what goes into it. */
export function plan() {
  const esbuild = esbuildOf();
  const hash = createHash('sha256').update(`${FORMAT} ${esbuild.version} ${process.version}`);
  const entries = {};
  for (const name of PREBUNDLED) {
    const { path, json } = packageJsonOf(name);
    const { mtimeMs, size } = statSync(path);
    hash.update(` ${name}@${json.version} ${path} ${mtimeMs} ${size}`);
    Object.assign(entries, entriesOf(name, path, json));
  }
  return { esbuild, entries, dir: join(CACHE, hash.digest('hex').slice(0, 16)) };
}

/** Builds the bundle unless it exists; returns its directory, or undefined when another process builds it. */
export function build({ esbuild, entries, dir }) {
  if (existsSync(join(dir, 'manifest.json'))) return dir;
  mkdirSync(CACHE, { recursive: true });
  const lock = `${dir}.building`;
  try {
    mkdirSync(lock);
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    if (Date.now() - statSync(lock).mtimeMs < STALE_BUILD_MS) return undefined;
    rmSync(lock, { recursive: true, force: true });
    mkdirSync(lock);
  }
  try {
    const out = join(lock, 'out');
    const names = Object.fromEntries(Object.keys(entries).map((spec) => [spec, spec.replaceAll('/', '__')]));
    esbuild.load().buildSync({
      entryPoints: Object.entries(entries).map(([spec, file]) => ({ in: file, out: names[spec] })),
      outdir: out,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      outExtension: { '.js': '.mjs' },
      legalComments: 'inline',
      logLevel: 'silent',
    });
    const manifest = Object.fromEntries(Object.keys(entries).map((spec) => [spec, `${names[spec]}.mjs`]));
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2));
    try {
      renameSync(out, dir);
    } catch (error) {
      if (!existsSync(join(dir, 'manifest.json'))) throw error;
    }
    removeOldBundles(dir);
    return dir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Bundles of earlier installs, a day after they were made (a process may still be using one). */
function removeOldBundles(current) {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path === current || name.endsWith('.building')) continue;
    if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Makes this process import the bundled packages (building the bundle first when it is missing).
 * Returns the bundle's directory, or undefined when the packages are resolved as usual.
 */
export function usePrebundledDependencies() {
  if (process.env.TV2_PREBUNDLE === '0') return undefined;
  if (typeof module.registerHooks !== 'function' || typeof module.findPackageJSON !== 'function')
    return undefined;
  let dir;
  try {
    dir = build(plan());
  } catch {
    return undefined;
  }
  if (!dir) return undefined;
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const urls = new Map(
    Object.entries(manifest).map(([spec, file]) => [spec, pathToFileURL(join(dir, file)).href]),
  );
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const url = urls.get(specifier);
      return url ? { url, format: 'module', shortCircuit: true } : nextResolve(specifier, context);
    },
  });
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = build(plan());
  console.log(dir ?? 'another process is building the bundle');
}
