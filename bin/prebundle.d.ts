/** The packages bundled (bin/prebundle.js). */
export declare const PREBUNDLED: readonly string[];

export interface PrebundlePlan {
  /** tsx's esbuild: its version, and the module, loaded only to build. */
  esbuild: { version: string; load(): unknown };
  /** The file of each specifier bundled ("kysely/migration" -> its module in node_modules). */
  entries: Record<string, string>;
  /** Where the bundle of the installed versions is, or will be. */
  dir: string;
}

export declare function plan(): PrebundlePlan;

/** Builds the bundle unless it exists; its directory, or undefined when another process builds it. */
export declare function build(plan: PrebundlePlan): string | undefined;

/** Makes this process import the bundled packages; the bundle's directory, or undefined when not used. */
export declare function usePrebundledDependencies(): string | undefined;
