/**
 * Rules of the clients area's own fields beyond the contact data (src/kernel/contact.ts): the form
 * e-mail addresses are compared in, and calendar days.
 */

/**
 * The form uniqueness is decided on: lower case throughout. Mail systems treat the name before the
 * @ as case-insensitive in practice; two clients that differ only in case would be one person.
 */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A calendar day YYYY-MM-DD that exists. */
export function isValidDay(value: string): boolean {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}
