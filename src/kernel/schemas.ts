import { type TSchema, Type } from 'typebox';
import { LANGUAGE_SLOTS } from './language.ts';

export const LanguageSchema = Type.Object(
  Object.fromEntries(LANGUAGE_SLOTS.map((slot) => [slot, Type.String()])) as Record<
    (typeof LANGUAGE_SLOTS)[number],
    ReturnType<typeof Type.String>
  >,
  { title: 'LanguageText', description: 'Text per language slot; an empty string where no text is kept.' },
);

export const ScnSchema = Type.Integer({
  minimum: 0,
  description: 'Pass as strscn next time to get only what changed since.',
});
export const NextOffsetSchema = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
  description:
    'The stroffset of the next page: the position of its first record (not a count; pass it back as it is); null on the last page.',
});

/**
 * `{ ROOT: inner }`: every answer has one root object named after its operation. Its `title` (the
 * root) names it in the OpenAPI document (src/http/openapi-components.ts); validators ignore it.
 */
export function rooted(root: string, inner: TSchema) {
  return Type.Object({ [root]: inner }, { title: root });
}
