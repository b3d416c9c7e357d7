import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { onPostgres } from './engine.ts';
import type { DB } from './schema.ts';

/**
 * A query of fixed shape, built and compiled by Kysely once and then run with each call's values.
 * Building and compiling a statement of a few parts cost more CPU than the database took to run it
 * (the price read on the 100k-article world: about 0.4 ms a call against well under 0.1 ms for its
 * index reads; one article's stock: about a tenth of a request's CPU; decisions 26 and 31). So
 * `compiledOnce` builds the query once with a marker in place of
 * each value, finds where each marker landed among the compiled parameters, and afterwards only
 * fills those slots; every other parameter (a constant of the query) is kept as compiled.
 *
 * The first call also builds the query with its own values and runs exactly what Kysely compiled
 * (so plugins and the query-plan tests see real values), after checking that both builds gave the
 * same SQL. `build` must give the same SQL whatever the values: it may not look at them (no
 * branches, no lists whose length depends on them), and every value must reach the SQL as a bound
 * parameter; otherwise the first call throws. The markers hold U+0000, which no value can: the
 * server refuses it in every request, and PostgreSQL cannot store it.
 */
export function compiledOnce<V extends { [K in keyof V]: string | number | null }, R>(
  keys: readonly (keyof V & string)[],
  build: (values: V) => Compilable<R>,
): (values: V) => CompiledQuery<R> {
  let compiled: { sql: string; slots: Array<{ key: keyof V } | { constant: unknown }> } | undefined;
  const prepare = (first: V) => {
    const markers = new Map(keys.map((k) => [`\u0000compiledOnce:${k}`, k]));
    const { sql, parameters } = build(
      Object.fromEntries([...markers].map(([m, k]) => [k, m])) as V,
    ).compile();
    const slots = parameters.map((p) => {
      const key = typeof p === 'string' ? markers.get(p) : undefined;
      return key === undefined ? { constant: p } : { key };
    });
    for (const k of keys) {
      if (!slots.some((s) => 'key' in s && s.key === k))
        throw new Error(`compiledOnce: the value "${k}" is not a parameter of the query`);
    }
    // the call's own build last: a plugin that keeps the last of equal statements (the query-plan
    // tests, which explain what they captured) gets the one with real values
    const real = build(first).compile();
    if (real.sql !== sql) throw new Error('compiledOnce: the SQL depends on the values');
    compiled = { sql, slots };
    return real;
  };
  return (values) => {
    if (compiled === undefined) return prepare(values);
    const parameters = compiled.slots.map((s) => ('key' in s ? values[s.key] : s.constant));
    return CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>;
  };
}

/** At most this many counts of rows are kept compiled per statement and engine. */
const KEPT_COUNTS = 64;

/**
 * A statement whose SQL depends only on a count of rows (a multi-row insert, an UPDATE over a VALUES
 * table of the rows), kept compiled per count and engine: the first call of each count builds and
 * compiles it with Kysely and runs that; later calls of that count run the kept SQL with
 * `parameters`, without building anything. It is kept only when the compiled parameters are exactly
 * `parameters` in order (each value a bound parameter, the statement's constants at their places),
 * so a statement whose parameters come out otherwise is simply built every time, as before.
 * `build` may not look at the values beyond their count (no branches on them).
 */
export function keptPerCount<R>(): (
  db: Kysely<DB>,
  count: number,
  parameters: readonly unknown[],
  build: () => Compilable<R>,
) => CompiledQuery<R> {
  const kept = { sqlite: new Map<number, string>(), postgres: new Map<number, string>() };
  return (db, count, parameters, build) => {
    const byCount = kept[onPostgres(db) ? 'postgres' : 'sqlite'];
    const text = byCount.get(count);
    if (text !== undefined) return CompiledQuery.raw(text, [...parameters]) as CompiledQuery<R>;
    const query = build().compile();
    const same =
      query.parameters.length === parameters.length && query.parameters.every((p, i) => p === parameters[i]);
    if (same && byCount.size < KEPT_COUNTS) byCount.set(count, query.sql);
    return query;
  };
}
