import { defineErrors } from '../../../kernel/errors.ts';

/**
 * The codes with which the orders' rule modules refuse (docs/orders.md). The rules are pure: they
 * answer a refusal `{ ok: false, code, detail }` instead of throwing, so a caller can ask "may I?"
 * without a try, and the service turns a refusal into the error of its code when it must stop
 * (`ORDER_RULE_ERRORS[refusal.code](refusal.detail)`, a 409 ConflictError). The table is made with
 * the kernel's `defineErrors` so the area lists it among its codes as it is (spread into its own
 * table); written here, beside the rules, because the codes are part of the rules' answers.
 */
export const ORDER_RULE_ERRORS = defineErrors('orders', {
  ORDER_MOVE_NOT_ALLOWED: {
    status: 409,
    meaning:
      'The order lifecycle has no such move from the order state for this party (docs/orders.md lists every allowed move); the order is unchanged.',
  },
  ORDER_DELIVERED_NOT_RETURNED: {
    status: 409,
    meaning: 'The order cannot be cancelled: some delivered quantity has not come back; close it instead.',
  },
  ORDER_HAS_OPEN_QUANTITY: {
    status: 409,
    meaning: 'The order cannot be closed while quantity is still open, unless the close cancels the rest.',
  },
  ORDER_DELIVERY_EMPTY: {
    status: 409,
    meaning: 'A delivery must deliver at least one unit of one line.',
  },
  ORDER_LINE_OVER_DELIVERED: {
    status: 409,
    meaning: 'A line cannot deliver more than its open quantity (delivered ≤ ordered − cancelled).',
  },
  ORDER_LINE_OVER_CANCELLED: {
    status: 409,
    meaning: 'A line cannot cancel more than its open quantity (cancelled ≤ ordered − delivered).',
  },
  ORDER_LINE_OVER_RESERVED: {
    status: 409,
    meaning:
      'A line cannot reserve more than its open quantity (reserved ≤ ordered − cancelled − delivered).',
  },
  ORDER_LINE_OVER_RELEASED: {
    status: 409,
    meaning: 'A line cannot release more than it holds reserved (reserved ≥ 0).',
  },
  ORDER_LINE_OVER_RETURNED: {
    status: 409,
    meaning: 'A line cannot take back more than was delivered and not yet returned (returned ≤ delivered).',
  },
});

type OrderRuleCode = keyof typeof ORDER_RULE_ERRORS;

/** What a rule answers when it says no: a stable code and a sentence for people. */
export interface Refusal {
  ok: false;
  code: OrderRuleCode;
  detail: string;
}

/** A refusal with the code of a table entry (`refuse(ORDER_RULE_ERRORS.ORDER_MOVE_NOT_ALLOWED, ...)`). */
export function refuse(entry: { readonly code: OrderRuleCode }, detail: string): Refusal {
  return { ok: false, code: entry.code, detail };
}
