import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded on its first use instead of at start (decision 53): the image, XML and PNG
 * packages (sharp with libvips, file-type, xmlbuilder2, pngjs) are a few hundred modules and about
 * 250 ms of a start on a slow machine, and most processes serve for hours before the first upload,
 * UBL document or demo picture. Loaded synchronously (Node's require, which also loads an ES module
 * without top-level await), so the callers stay as they were; the type comes from the package's
 * own declarations (`typeof import('…')`, erased at run time).
 */
export function lazyPackage<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(specifier) as T;
    return loaded;
  };
}
