import { defineErrors } from '../../kernel/errors.ts';

/** The codes of deliveries, closing and returns (docs/orders.md). */
export const AFTER_SALES_ERRORS = defineErrors('orders', {});
