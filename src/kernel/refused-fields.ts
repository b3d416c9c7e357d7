import { ValidationError } from './errors.ts';

/**
 * For the unit tests of the field rules: the field names a ValidationError of `work` reports, or []
 * when it succeeds. Any other error is thrown again.
 */
export function refusedFields(work: () => unknown): string[] {
  try {
    work();
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.errors.map((e) => e.name);
  }
}
