import type { Database } from '../../kernel/db/database.ts';
import { ContentService } from './content-service.ts';
import { PickupService } from './pickup-service.ts';
import { ShopService } from './shop-service.ts';

/** The shops area's services, one per sub-resource (docs/shops.md). */
export interface ShopsServices {
  /** Shop details, images and assistants. */
  shops: ShopService;
  /** Pickup locations and external pickup points. */
  pickup: PickupService;
  /** Home page blocks and validation patterns. */
  content: ContentService;
}

export function createShopsServices(database: Database, now: () => Date = () => new Date()): ShopsServices {
  return {
    shops: new ShopService(database, now),
    pickup: new PickupService(database, now),
    content: new ContentService(database, now),
  };
}
