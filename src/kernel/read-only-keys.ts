import { type TOptional, type TUnknown, Type } from 'typebox';

/**
 * The keys a GET answer has and a PUT body may carry back (SCN, CREATED, ...): declared in the body
 * schema, so a client can PUT what it read, and ignored by the write. The body schemas are closed
 * (`additionalProperties: false`), so any other unknown key, a misspelled optional field above all,
 * is a 400 naming it rather than silently dropped.
 */
export function readOnlyKeys<K extends string>(
  keys: readonly K[],
  note = 'read-only: ignored',
): Record<K, TOptional<TUnknown>> {
  return Object.fromEntries(
    keys.map((key) => [key, Type.Optional(Type.Unknown({ description: note, readOnly: true }))]),
  ) as Record<K, TOptional<TUnknown>>;
}
