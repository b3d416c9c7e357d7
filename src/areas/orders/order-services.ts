import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import type { Services } from '../../kernel/services.ts';
import { InvoicingReadService } from './invoicing-read.ts';
import { OrderMoveService } from './order-move-service.ts';
import { OrderReadService } from './order-read-service.ts';
import { OrderSettlement } from './order-settlement.ts';
import { PlacementService } from './placement-service.ts';

/** The orders area's services, one per sub-resource (docs/orders.md). */
export interface OrdersServices {
  /** Placing orders (B2B_PostOrdCus, B2C_PostWebOrder). */
  placement: PlacementService;
  /** Reading orders, their history and deliveries, and the order state feeds. */
  reads: OrderReadService;
  /** Lifecycle moves, deliveries and returns. */
  moves: OrderMoveService;
  /** What billing reads of deliveries: delivered lines not returned (docs/billing-issuing.md). */
  invoicing: InvoicingReadService;
  /** Web orders' tenders settled after their lines change (refunds, credit notes, bonus). */
  settlement: OrderSettlement;
}

export function createOrdersServices(
  config: Config,
  database: Database,
  all: Services,
  now: () => Date = () => new Date(),
): OrdersServices {
  return {
    placement: new PlacementService(database, config, all, now),
    reads: new OrderReadService(database, config, all, now),
    moves: new OrderMoveService(database, config, all, now),
    invoicing: new InvoicingReadService(database),
    settlement: new OrderSettlement(all, config),
  };
}
