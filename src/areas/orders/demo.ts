import type { Services } from '../../kernel/services.ts';
import { FIRST_CLIENT_NO } from '../clients/index.ts';
import { FIRST_DEMO_CUSTOMER } from '../customers/index.ts';
import { placementFromOrdCus, placementFromWebOrder } from './placement-rules.ts';

/** A size of a demo article at the order location, by barcode. */
interface DemoSize {
  barcode: string;
  retail: boolean;
}

/** How many pieces of a size the demo orders take at most: well under the demo warehouse's depth. */
const PIECES = 2;

/**
 * Demo orders in every state, wholesale and web, with deliveries, a cancelled delivery and a return,
 * made through the services as the back office and the parties would (docs/orders.md, "Back
 * office"), so `npm start` shows a shop that sells. Small: a dozen orders of a few pieces from the
 * first demo articles with stock at the order location. Seeded once: when its first order is there
 * already, it adds nothing.
 */
export async function seedOrders(services: Services): Promise<{ orders: number }> {
  const sizes = await demoSizes(services, 8);
  const retail = sizes.filter((s) => s.retail);
  if (sizes.length < 4 || retail.length < 3) return { orders: 0 };
  const { placement, moves } = services.orders;
  const customer = FIRST_DEMO_CUSTOMER;
  const at = (i: number) => sizes[i % sizes.length]!.barcode;
  const web = (i: number) => retail[i % retail.length]!.barcode;

  const wholesale = async (ref: string, lines: string[]) => {
    const placed = await placement.placeOrder(
      placementFromOrdCus(
        {
          ORDERREQUEST: {
            ORDERHEADER: { CUSTOMER: String(customer), WEBORDER: ref },
            ORDERLINES: lines.map((barcode) => ({ BARCODE: barcode, QUANTITY: PIECES })),
          },
        },
        customer,
      ),
      'CUSTOMER',
    );
    return placed.CREATED ? placed.ORDERNO : undefined;
  };
  const webOrder = async (ref: string, lines: string[], data: Record<string, unknown> = {}) => {
    const placed = await placement.placeOrder(
      placementFromWebOrder(
        {
          WEBORDERDATA: {
            CLIENT: FIRST_CLIENT_NO,
            WEBORDER: ref,
            PAYMENTREFERENCE: `PAY-${ref}`,
            ...data,
            ORDERLINES: lines.map((barcode) => ({ BARCODE: barcode, QUANTITY: 1 })),
          },
        } as Parameters<typeof placementFromWebOrder>[0],
        FIRST_CLIENT_NO,
      ),
      'CLIENT',
    );
    return placed.ORDERNO;
  };
  const confirm = (no: number) => moves.move(no, { name: 'confirm' }, 'BACK_OFFICE');

  const first = await wholesale('DEMO-NEW', [at(0)]);
  if (first === undefined) return { orders: 0 };

  const confirmed = await wholesale('DEMO-CONFIRMED', [at(1), at(2)]);
  await confirm(confirmed!);

  const picking = await wholesale('DEMO-PICKING', [at(3)]);
  await confirm(picking!);
  await moves.move(picking!, { name: 'startPicking' }, 'SYSTEM');

  // Partly delivered, with a delivery cancelled (the goods did not leave) along the way.
  const partial = await wholesale('DEMO-PARTIAL', [at(4), at(5)]);
  await confirm(partial!);
  const wrong = await moves.deliveries.deliver(partial!, {
    lines: [{ line: 2, quantity: 1 }],
    reference: 'DN-DEMO-1',
  });
  await moves.deliveries.cancel(wrong.deliveryNo);
  await moves.deliveries.deliver(partial!, {
    lines: [{ line: 1, quantity: PIECES }],
    reference: 'DN-DEMO-2',
  });

  const delivered = await wholesale('DEMO-DELIVERED', [at(6)]);
  await confirm(delivered!);
  await moves.deliveries.deliver(delivered!, { reference: 'DN-DEMO-3' });

  const closed = await wholesale('DEMO-CLOSED', [at(7), at(0)]);
  await confirm(closed!);
  await moves.deliveries.deliver(closed!, { reference: 'DN-DEMO-4' });
  await moves.move(closed!, { name: 'close' }, 'BACK_OFFICE');

  const cancelled = await wholesale('DEMO-CANCELLED', [at(1)]);
  await moves.move(cancelled!, { name: 'cancel' }, 'CUSTOMER');

  // Web orders: one new, one delivered, collected, closed by the client with a piece returned, one
  // called off by the client.
  await webOrder('WEB-DEMO-NEW', [web(0)]);
  const collected = await webOrder('WEB-DEMO-COLLECTED', [web(1), web(2)], {
    DELIVERY: 'PICKUP',
    PICKUPLOCATION: 'AMS',
  });
  await confirm(collected);
  await moves.deliveries.deliver(collected, { reference: 'PICKUP-AMS' });
  await moves.closeForClient(FIRST_CLIENT_NO, collected);
  const authorised = await moves.returns.authorise({
    orderNo: collected,
    party: { clientNo: FIRST_CLIENT_NO },
    lines: [{ line: 1, quantity: 1 }],
    reason: 'does not fit',
    pointer: '/RETURNREQUEST',
  });
  await moves.returns.receive(authorised.returnNo);
  const calledOff = await webOrder('WEB-DEMO-CANCELLED', [web(0)]);
  await moves.closeForClient(FIRST_CLIENT_NO, calledOff);
  return { orders: 10 };
}

/**
 * The first `count` sizes of demo articles (active, sold to wholesale) with at least 3 × PIECES
 * available at the order location, wholesale and retail ones alike, one size per article.
 */
async function demoSizes(services: Services, count: number): Promise<DemoSize[]> {
  const page = await services.catalog.listArticles('B2B', { sinceScn: 0, offset: 1, limit: 60 });
  const out: DemoSize[] = [];
  for (const a of page.items) {
    if (out.length >= count) break;
    if (!a.ACTIVE) continue;
    for (const s of a.SIZES) {
      const level = await services.stock.ledger.level({
        locationCode: services.orders.placement.config.orderLocation,
        articleNo: a.ARTICLE,
        sizex: s.SIZEX,
      });
      if (level.available >= 3 * PIECES && s.BARCODE) {
        out.push({ barcode: s.BARCODE, retail: a.RETAIL });
        break;
      }
    }
  }
  return out;
}
