import type { Services } from '../../kernel/services.ts';

/** Demo orders in every state, with deliveries and a return (filled when the moves are built). */
export async function seedOrders(_services: Services): Promise<{ orders: number }> {
  return { orders: 0 };
}
