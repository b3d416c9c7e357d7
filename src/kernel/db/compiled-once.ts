import { type Compilable, CompiledQuery } from 'kysely';

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
