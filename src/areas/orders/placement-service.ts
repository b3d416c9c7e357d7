import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction, type UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { DomainError, type FieldError, ValidationError } from '../../kernel/errors.ts';
import type { Services } from '../../kernel/services.ts';
import { type BarcodeSize, sizesByBarcodeIn } from '../catalog/index.ts';
import { ORDERS_ERRORS } from './errors.ts';
import { type OrderLineRow, OrderRepository } from './order-repository.ts';
import { OrderTenderRepository, type OrderTenderRow } from './order-tender-repository.ts';
import { type PlacedOrder, placedOrderOf } from './placed-order.ts';
import { PlacementRepository } from './placement-repository.ts';
import {
  amountProblems,
  earningCard,
  type Party,
  type Placement,
  type PricedPlacementLine,
  placementProblems,
  priceDifferences,
  requestHash,
  tenderProblems,
} from './placement-rules.ts';
import { type Actor, place } from './rules/lifecycle.ts';
import type { LineCounters } from './rules/line-counters.ts';
import { calculateOrder, type OrderMoney } from './rules/order-calculator.ts';
import { ORDER_RULE_ERRORS } from './rules/refusals.ts';

/**
 * Places orders (docs/orders.md, "Placing an order"): B2B_PostOrdCus and B2C_PostWebOrder.
 *
 * Everything that only reads (the party, its addresses, the barcodes, the server's prices, the
 * money) is done before the write transaction, at the snapshot the placement starts from; the
 * transaction then claims the party's reference, reserves the stock and writes the order, its
 * lines, its VAT rows and its first history row, all or nothing. An order placed a moment later
 * than its prices were read is priced as it would have been a moment earlier: the prices are the
 * server's either way, and the writers of SQLite are not held while prices are read.
 */
export class PlacementService {
  readonly database: Database;
  readonly config: Config;
  readonly all: Services;
  readonly now: () => Date;
  readonly #read: OrderRepository;
  readonly #write: PlacementRepository;

  constructor(database: Database, config: Config, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.config = config;
    this.all = all;
    this.now = now;
    this.#read = new OrderRepository(database.db);
    this.#write = new PlacementRepository(database.db);
  }

  /**
   * `callerKey` names the API user whose refused tender codes count against its voucher-check
   * throttle (as B2C_ValidateVoucher's do).
   */
  async placeOrder(placement: Placement, actor: Actor, callerKey = 'system'): Promise<PlacedOrder> {
    const problems = placementProblems(placement);
    if (problems.length > 0) throw new ValidationError(problems);
    const hash = requestHash(placement);
    let priced: PricedPlacementLine[];
    let party: Party;
    let money: OrderMoney;
    try {
      party = await this.#party(placement);
      priced = await this.#price(placement, party, await this.#sizes(placement));
      const differences = priceDifferences(placement, party, priced);
      if (differences.length > 0) {
        throw ORDERS_ERRORS.ORDER_PRICE_DIFFERS(
          `Prices are the server’s: ${differences.map((d) => `${d.name} ${d.message}`).join('; ')}.`,
        );
      }
      const tooLarge = amountProblems(priced);
      if (tooLarge.length > 0) throw new ValidationError(tooLarge);
      money = calculateOrder(
        priced.map((l) => ({
          quantity: l.quantity,
          unitPrice: l.unitPrice,
          priceRule: l.priceRule,
          discountBp: 0,
          vatBp: l.vatBp,
        })),
        { pricesIncludeVat: placement.channel === 'B2C' },
      );
      await this.#checkTenders(placement, party, money.gross, callerKey);
    } catch (error) {
      // A repeat is answered whatever changed since (a price, an article withdrawn): the reference
      // is looked up only when the reading refused, so a first placement costs no look-up.
      if (error instanceof DomainError) {
        const replayed = await this.#replayIfPlaced(placement, hash);
        if (replayed) return replayed;
      }
      throw error;
    }

    const result = await inWriteTransaction(this.database, async (uow) => {
      const stamp = await uow.stamp();
      const at = this.now().toISOString();
      const order = orderRow(placement, party, money, hash, stamp, at, this.config);
      const orderNo = await this.#write.claimOrder(order, uow.db);
      // A repeat: roll back (on SQLite the SCN taken above is not spent) and answer the first.
      if (orderNo === undefined) throw REPEAT;
      const reserved = await this.all.stock.reservations.reserveAllIn(
        uow,
        priced.map((l) => ({
          locationCode: this.config.orderLocation,
          articleNo: l.size.articleNo,
          sizex: l.size.sizex,
          quantity: l.quantity,
          reference: `ORDER ${orderNo}`,
        })),
        { upTo: placement.channel === 'B2B' && this.config.orderBackorders },
      );
      const placed = place(
        priced.map((l, i) => ({ ordered: l.quantity, reserved: reserved[i]!.reserved })),
        actor,
      );
      if (!placed.ok) throw ORDER_RULE_ERRORS[placed.code](placed.detail);
      const lines = priced.map((l, i) => lineRow(orderNo, i, l, placed.order.lines[i]!, money.lines[i]!));
      const vat = money.vat.map((v) => ({
        order_no: orderNo,
        vat_bp: v.vatBp,
        net: v.net,
        vat: v.vat,
        gross: v.gross,
      }));
      const tenders = await this.#payTenders(uow, placement, party, orderNo);
      await this.#write.insertLines(lines, uow.db);
      await this.#write.insertVat(vat, uow.db);
      await this.#write.insertHistory(
        {
          order_no: orderNo,
          from_state: null,
          to_state: placed.history.to,
          action: placed.history.action,
          actor,
          reference: null,
          scn: stamp,
          at,
        },
        uow.db,
      );
      return { order: { ...order, order_no: orderNo }, lines, vat, tenders };
    }).catch((error: unknown) => {
      if (error === REPEAT) return undefined;
      throw error;
    });
    // The answer is what was written: nothing is read back.
    if (result) {
      return placedOrderOf(result.order, result.lines, result.vat, true, sizesOf(priced), result.tenders);
    }
    // Another placement of the same reference had committed (the claim waited for it).
    const replayed = await this.#replayIfPlaced(placement, hash);
    if (!replayed) throw new Error('an order claim found a conflict but no order');
    return replayed;
  }

  /** The answer to a repeat of a placed reference (CREATED false), or undefined if none is placed. */
  async #replayIfPlaced(placement: Placement, hash: string): Promise<PlacedOrder | undefined> {
    const first = await this.#write.referenceOf(placement.channel, placement.partyNo, placement.weborder);
    if (!first) return undefined;
    const orderNo = Number(first.order_no);
    if (first.request_hash !== hash) {
      throw ORDERS_ERRORS.WEBORDER_CONFLICT(
        `WEBORDER "${placement.weborder}" is order ${orderNo}, placed with other content.`,
      );
    }
    const order = await this.#read.findOrder(orderNo);
    if (!order) throw new Error(`order ${orderNo} vanished`);
    const lines = await this.#read.linesOf(orderNo);
    const vat = await this.#read.vatOf(orderNo);
    const tenders =
      Number(order.tenders_paid) > 0
        ? await new OrderTenderRepository(this.database.db).tendersOf(orderNo)
        : [];
    const known = await sizesByBarcodeIn(
      this.database.db,
      lines.map((l) => l.barcode),
    );
    return placedOrderOf(order, lines, vat, false, known, tenders);
  }

  /**
   * Before the transaction: the tenders pay at most the order's gross, and each can pay (a voucher
   * or cheque checked as B2C_ValidateVoucher checks it, throttled; a bonus card the client's or no
   * one's); the card the order earns on, if it exists, is such a card too. Balances are decided by
   * the debits in the transaction.
   */
  async #checkTenders(p: Placement, party: Party, gross: number, callerKey: string): Promise<void> {
    const tooMuch = tenderProblems(p, gross);
    if (tooMuch.length > 0) throw new ValidationError(tooMuch);
    const payments = this.all.tenders.payments;
    for (const t of p.tenders ?? []) {
      await payments.check(
        { type: t.type, code: t.code, currency: party.currency, clientNo: p.partyNo },
        callerKey,
      );
    }
    const card = earningCard(p);
    if (card !== null) await payments.checkEarningCard(card, p.partyNo);
  }

  /** In the placement's transaction: debits every tender of the order and keeps the order's side of it. */
  async #payTenders(uow: UnitOfWork, p: Placement, party: Party, orderNo: number): Promise<OrderTenderRow[]> {
    if (!p.tenders) return [];
    const rows: OrderTenderRow[] = [];
    for (const [i, t] of p.tenders.entries()) {
      const debited = await this.all.tenders.payments.debitIn(uow, {
        type: t.type,
        code: t.code,
        amount: t.amount,
        currency: party.currency,
        reference: `ORDER ${orderNo}`,
        issuedBy: p.weborder,
        clientNo: p.partyNo,
      });
      rows.push({
        order_no: orderNo,
        line_no: i + 1,
        kind: debited.kind,
        code: debited.code,
        tender_id: debited.tenderId,
        amount: t.amount,
        refunded: 0,
      });
    }
    await new OrderTenderRepository(uow.db).insertTenders(rows);
    return rows;
  }

  async #party(p: Placement): Promise<Party> {
    const root = p.root;
    if (p.channel === 'B2B') {
      const customer = await this.all.customers.customers.getCustomer(p.partyNo);
      const delivery = [...customer['INVOICE ADDRESSES'], ...customer['DELIVERY ADDRESSES']];
      const deliveryNo =
        p.deliveryAddressNo ?? Number(customer['DELIVERY ADDRESSES'][0]?.EXTRAADDRESSNO ?? 0);
      const invoiceNo = p.invoiceAddressNo ?? 0;
      const deliveryAddress = delivery.find((a) => Number(a.EXTRAADDRESSNO) === deliveryNo);
      const invoiceAddress = customer['INVOICE ADDRESSES'].find(
        (a) => Number(a.EXTRAADDRESSNO) === invoiceNo,
      );
      const errors: FieldError[] = [];
      if (!deliveryAddress) {
        errors.push({
          name: `${root}/ORDERHEADER/DELEXTRAADDRESSNO`,
          message: `customer ${p.partyNo} has no address ${deliveryNo}`,
        });
      }
      if (!invoiceAddress) {
        errors.push({
          name: `${root}/ORDERHEADER/FACEXTRAADDRESSNO`,
          message: `customer ${p.partyNo} has no invoice address ${invoiceNo}`,
        });
      }
      if (errors.length > 0) throw new ValidationError(errors);
      return {
        channel: 'B2B',
        currency: p.currency ?? customer.CURRENCY,
        discountBp: Math.round(customer.DISCOUNTPERC * 100),
        paymentDays: customer.PAYMENTDAYS,
        deliveryAddressNo: deliveryNo,
        invoiceAddressNo: invoiceNo,
        deliveryAddress: JSON.stringify(deliveryAddress),
        invoiceAddress: JSON.stringify(invoiceAddress),
        pickupPoint: null,
        email: null,
      };
    }
    const client = await this.all.clients.profiles.contactOf(p.partyNo);
    const delivery = p.delivery ?? { kind: 'ADDRESS' as const };
    let pickupPoint: string | null = null;
    let deliveryAddress: string | null = null;
    if (delivery.kind === 'PICKUP') {
      const found = await this.all.shops.pickup.pickupLocation(delivery.location);
      if (!found) {
        throw new ValidationError([
          {
            name: `${root}/PICKUPLOCATION`,
            message: `no pickup location "${delivery.location}" (B2C_GetPickUpLocations lists them)`,
          },
        ]);
      }
      pickupPoint = delivery.location;
    } else {
      const name = [client.FIRSTNAME, client.MIDDLENAME, client.LASTNAME].filter(Boolean).join(' ');
      const address = delivery.address ?? {
        NAME: name,
        ADDRESS: client.ADDRESS,
        HOUSENUMBER: client.HOUSENUMBER,
        POSTALCODE: client.POSTALCODE,
        CITY: client.CITY,
        COUNTRY: client.COUNTRY,
      };
      if (!address.ADDRESS || !address.POSTALCODE || !address.CITY || !address.COUNTRY) {
        throw new ValidationError([
          {
            name: `${root}/DELIVERYADDRESS`,
            message: 'the client has no complete address: give DELIVERYADDRESS, or DELIVERY PICKUP',
          },
        ]);
      }
      deliveryAddress = JSON.stringify({ NAME: name, HOUSENUMBER: '', ...address });
    }
    return {
      channel: 'B2C',
      currency: p.currency ?? 'EUR',
      discountBp: 0,
      paymentDays: 0,
      deliveryAddressNo: null,
      invoiceAddressNo: null,
      deliveryAddress,
      invoiceAddress: null,
      pickupPoint,
      email: p.email ?? (client.EMAIL || null),
    };
  }

  async #sizes(p: Placement): Promise<Map<string, BarcodeSize>> {
    const sizes = await sizesByBarcodeIn(
      this.database.db,
      p.lines.map((l) => l.barcode),
    );
    const errors: FieldError[] = [];
    for (const line of p.lines) {
      const size = sizes.get(line.barcode);
      const name = `${line.pointer}/BARCODE`;
      if (!size) errors.push({ name, message: `no article size has barcode ${line.barcode}` });
      else if (!size.active) errors.push({ name, message: `article ${size.articleNo} is not active` });
      else if (p.channel === 'B2C' && !size.retail)
        errors.push({ name, message: `article ${size.articleNo} is not sold to retail` });
    }
    if (errors.length > 0) throw new ValidationError(errors);
    return sizes;
  }

  async #price(p: Placement, party: Party, sizes: Map<string, BarcodeSize>): Promise<PricedPlacementLine[]> {
    if (p.channel === 'B2C') {
      // Every line's retail price in one statement.
      const prices = await this.all.pricing.retailPrices.retailPrices(
        p.lines.map((line) => sizes.get(line.barcode)!),
        party.currency,
      );
      return p.lines.map((line, i) => {
        const size = sizes.get(line.barcode)!;
        const r = prices[i]!;
        const ruleDiscountBp =
          r.listPrice > r.unitPrice ? Math.round(((r.listPrice - r.unitPrice) * 10_000) / r.listPrice) : null;
        return {
          ...line,
          size,
          vatBp: size.vatRateBp,
          listPrice: r.listPrice,
          unitPrice: r.unitPrice,
          priceRule: r.rule,
          ruleDiscountBp,
        };
      });
    }
    const out: PricedPlacementLine[] = [];
    for (const line of p.lines) {
      const size = sizes.get(line.barcode)!;
      const priced = await this.all.pricing.articlePrices.priceFor({
        customerNo: p.partyNo,
        articleNo: size.articleNo,
        sizex: size.sizex,
        quantity: line.quantity,
        currency: party.currency,
      });
      const r = priced.resolved;
      out.push({
        ...line,
        size,
        vatBp: size.vatRateBp,
        listPrice: r.listPrice,
        unitPrice: r.netPrice,
        priceRule: r.rule,
        ruleDiscountBp: r.discountBp,
      });
    }
    return out;
  }
}

/** Thrown inside the placement's transaction when the claim finds the reference placed: rolls it back. */
const REPEAT = new Error('the reference is placed already');

function orderRow(
  p: Placement,
  party: Party,
  money: OrderMoney,
  hash: string,
  scn: number,
  at: string,
  config: Config,
) {
  return {
    channel: p.channel,
    customer_no: p.channel === 'B2B' ? p.partyNo : null,
    client_no: p.channel === 'B2C' ? p.partyNo : null,
    weborder: p.weborder,
    request_hash: hash,
    state: 'NEW',
    currency: party.currency,
    prices_include_vat: p.channel === 'B2C' ? 1 : 0,
    customer_discount_bp: party.discountBp,
    net: money.net,
    vat_total: money.vatTotal,
    gross: money.gross,
    freight: 0,
    date_ordered: p.dateOrdered ?? at.slice(0, 10),
    header_text: p.headerText,
    bottom_text: p.bottomText,
    delivery_address_no: party.deliveryAddressNo,
    invoice_address_no: party.invoiceAddressNo,
    delivery_address: party.deliveryAddress,
    invoice_address: party.invoiceAddress,
    pickup_point: party.pickupPoint,
    email: party.email,
    payment_reference: p.paymentReference ?? null,
    tenders_paid: (p.tenders ?? []).reduce((sum, t) => sum + t.amount, 0),
    bonus_card: earningCard(p),
    location_code: config.orderLocation,
    payment_days: party.paymentDays,
    scn,
    created_at: at,
    updated_at: at,
  };
}

/** The stored line of a priced placement line (`i` from 0), with its counters and money. */
function lineRow(
  orderNo: number,
  i: number,
  l: PricedPlacementLine,
  counters: LineCounters,
  money: OrderMoney['lines'][number],
): OrderLineRow {
  return {
    order_no: orderNo,
    line_no: i + 1,
    article_no: l.size.articleNo,
    sizex: l.size.sizex,
    barcode: l.size.barcode,
    ordered: counters.ordered,
    cancelled: counters.cancelled,
    reserved: counters.reserved,
    delivered: counters.delivered,
    returned: counters.returned,
    list_price: l.listPrice,
    unit_price: l.unitPrice,
    price_rule: l.priceRule,
    rule_discount_bp: l.ruleDiscountBp,
    discount_bp: money.discountBp,
    vat_bp: money.vatBp,
    list_amount: money.listAmount,
    discount: money.discount,
    amount: money.amount,
    customer_sequence: l.customerSequence,
    assortment: 0,
  };
}

/** The sizes of the priced lines by barcode (for the answer's descriptions). */
function sizesOf(priced: readonly PricedPlacementLine[]): Map<string, BarcodeSize> {
  return new Map(priced.map((l) => [l.size.barcode, l.size]));
}
