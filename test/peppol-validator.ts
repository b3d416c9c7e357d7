import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type * as Validator from './vendor/peppol/validate.mjs';

/**
 * Finds the offline Peppol BIS Billing 3.0 validator (EN 16931 and Peppol Schematron rules run by
 * saxon-js; docs/billing.md, "Peppol BIS Billing 3.0") for the tests that validate billing
 * documents. In order:
 *   1. the directory in TV2_PEPPOL_VALIDATOR: set but missing or incomplete is an error, never a
 *      silent fallback (a run meant to use a given bundle must not test against another);
 *   2. <repo root>/../shared/validators/peppol (the workplace layout);
 *   3. /work/shared/validators/peppol;
 *   4. the vendored copy in test/vendor/peppol (rule sets gzipped), unpacked into .tmp/peppol/ at
 *      first use, so a clean clone in CI validates too.
 * validate.mjs reads its rule sets beside itself, so the unpacked copy gets validate.mjs beside them.
 */
export type PeppolValidator = typeof Validator;

export interface LocatedBundle {
  dir: string;
  source: 'TV2_PEPPOL_VALIDATOR' | 'beside the repository' | 'workplace' | 'vendored';
}

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VENDORED = join(REPO_ROOT, 'test/vendor/peppol');
export const RULE_SET_FILES = ['EN16931-UBL-validation.sef.json', 'PEPPOL-EN16931-UBL.sef.json'] as const;
const BUNDLE_FILES = ['validate.mjs', ...RULE_SET_FILES];

function isBundle(dir: string): boolean {
  return BUNDLE_FILES.every((f) => existsSync(join(dir, f)) && statSync(join(dir, f)).isFile());
}

export function locateBundle({
  env = process.env,
  repoRoot = REPO_ROOT,
  workplace = '/work/shared/validators/peppol',
  unpackTo = join(REPO_ROOT, '.tmp/peppol'),
}: {
  env?: NodeJS.ProcessEnv;
  repoRoot?: string;
  workplace?: string;
  unpackTo?: string;
} = {}): LocatedBundle {
  const given = env.TV2_PEPPOL_VALIDATOR;
  if (given !== undefined) {
    const dir = resolve(given);
    if (!isBundle(dir))
      throw new Error(
        `TV2_PEPPOL_VALIDATOR=${given}: no validator bundle there (needs ${BUNDLE_FILES.join(', ')}); unset it to use the one found or the vendored copy`,
      );
    return { dir, source: 'TV2_PEPPOL_VALIDATOR' };
  }
  const beside = resolve(repoRoot, '../shared/validators/peppol');
  if (isBundle(beside)) return { dir: beside, source: 'beside the repository' };
  if (isBundle(workplace)) return { dir: workplace, source: 'workplace' };
  return { dir: unpackVendored(unpackTo), source: 'vendored' };
}

/**
 * Unpacks the vendored copy into `target` (its rule sets gunzipped, validate.mjs beside them) and
 * returns it. Each file is written to a temporary name and renamed, so two test processes unpacking
 * at once never read a half-written rule set; a file already there with the same bytes is kept.
 */
export function unpackVendored(target: string): string {
  mkdirSync(target, { recursive: true });
  const put = (name: string, bytes: Buffer) => {
    const path = join(target, name);
    if (existsSync(path) && readFileSync(path).equals(bytes)) return;
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  };
  for (const file of RULE_SET_FILES) put(file, gunzipSync(readFileSync(join(VENDORED, `${file}.gz`))));
  for (const file of ['validate.mjs', 'validate.d.mts']) put(file, readFileSync(join(VENDORED, file)));
  return target;
}

/** The sha256 of each rule set of a bundle, to compare two copies. */
export function ruleSetHashes(dir: string): string[] {
  return RULE_SET_FILES.map((f) =>
    createHash('sha256')
      .update(readFileSync(join(dir, f)))
      .digest('hex'),
  );
}

/**
 * Imports the validator of a bundle, handing it this project's saxon-js (so it does not depend on
 * the working directory to find it).
 */
export async function loadValidator(bundle: LocatedBundle = locateBundle()): Promise<PeppolValidator> {
  const validator = (await import(pathToFileURL(join(bundle.dir, 'validate.mjs')).href)) as PeppolValidator;
  validator.setSaxonJS(createRequire(import.meta.url)('saxon-js'));
  return validator;
}
