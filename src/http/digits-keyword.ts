/**
 * `x-digits-max`: the largest value a digit string (a TV2 query value, an admin path key) may spell.
 * JSON Schema cannot compare a string's numeric value, and a digit string longer than the column
 * holds would otherwise reach the database (PostgreSQL: "out of range for type integer", a 500).
 * Added to Fastify's Ajv as a keyword, so the bound is checked where the rest of the schema is, and
 * shown in the OpenAPI document (an `x-` extension).
 */
import type { Ajv, SchemaValidateFunction } from 'ajv';
import { DIGITS_MAX } from '../kernel/int-limits.ts';

export { DIGITS_MAX };

/** A digit string's value is at most the keyword's number; other strings are left to `pattern`. */
export function digitsMaxKeyword(ajv: Ajv): Ajv {
  const validate: SchemaValidateFunction = (max: number, data: string) => {
    if (!/^[0-9]+$/.test(data) || Number(data) <= max) return true;
    validate.errors = [{ keyword: DIGITS_MAX, message: `must be at most ${max}`, params: { limit: max } }];
    return false;
  };
  return ajv.addKeyword({
    keyword: DIGITS_MAX,
    type: 'string',
    schemaType: 'number',
    errors: true,
    validate,
  });
}
