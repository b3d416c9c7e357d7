import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import type { Services } from '../../kernel/services.ts';
import { DeliveryService } from './delivery-service.ts';
import { applyMove, lockOrderOf, type MoveResult, type OrderParty } from './move-core.ts';
import { ReturnService } from './return-service.ts';
import type { Actor, OrderAction } from './rules/lifecycle.ts';

/**
 * Lifecycle moves of an order (docs/orders.md, "Moves"), and through `deliveries` and `returns` its
 * deliveries and returns. Every move is one write transaction: the order row locked
 * (OrderRepository.lockOrder: FOR UPDATE on PostgreSQL, SQLite's single writer), its lines read
 * under that lock, the pure `move` of rules/lifecycle.ts asked, and only if it accepts: the stock
 * through the stock area's reservations, the changed counters, the stored state and one history row
 * with the transaction's SCN. A refusal throws its 409 before anything is written.
 */
export class OrderMoveService {
  readonly database: Database;
  readonly config: Config;
  readonly all: Services;
  readonly now: () => Date;
  /** Deliveries of open quantity, their cancellation and their history. */
  readonly deliveries: DeliveryService;
  /** Return authorisations (B2C_GetReturnLocation) and their receipt. */
  readonly returns: ReturnService;

  constructor(database: Database, config: Config, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.config = config;
    this.all = all;
    this.now = now;
    this.deliveries = new DeliveryService(database, all, now);
    this.returns = new ReturnService(database, all, now);
  }

  /** Moves an order by an action of an actor (confirm, startPicking, cancel, close), confined to `party`. */
  move(orderNo: number, action: OrderAction, actor: Actor, party?: OrderParty): Promise<MoveResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const locked = await lockOrderOf(uow, orderNo, party);
      return applyMove(uow, this.all, this.now, locked, action, actor, `ORDER ${orderNo}`);
    });
  }

  /**
   * B2C_CloseClientOrder: the client is done with its order. Nothing delivered yet: the order is
   * cancelled (`cancel`, which the lifecycle lets a client do before picking starts). Something
   * delivered: the client confirms the order complete as it is (`close` with `cancelRest`: what is
   * still open is cancelled and its reservation released).
   */
  closeForClient(clientNo: number, orderNo: number): Promise<MoveResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const locked = await lockOrderOf(uow, orderNo, { clientNo });
      const delivered = locked.lines.some((l) => l.delivered > 0);
      const action: OrderAction = delivered ? { name: 'close', cancelRest: true } : { name: 'cancel' };
      return applyMove(uow, this.all, this.now, locked, action, 'CLIENT', `ORDER ${orderNo}`);
    });
  }
}
