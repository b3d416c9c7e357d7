/**
 * The states of an order (docs/orders.md, "States"). Two kinds: the states an order row stores,
 * which only lifecycle moves set, and the two delivery states, which are never stored but read off
 * the line counters (`derivedState` in line-counters.ts), so they cannot disagree with them.
 */
export const STORED_STATES = ['NEW', 'CONFIRMED', 'PICKING', 'CLOSED', 'CANCELLED'] as const;
export type StoredState = (typeof STORED_STATES)[number];

/** Every state an order is reported in, in the order of a normal life. */
export const ORDER_STATES = [
  'NEW',
  'CONFIRMED',
  'PICKING',
  'PARTIALLY_DELIVERED',
  'DELIVERED',
  'CLOSED',
  'CANCELLED',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Final states: they accept no move, and every line in them has nothing open and nothing reserved. */
export const TERMINAL_STATES: readonly OrderState[] = ['CLOSED', 'CANCELLED'];
