import { fromMinor, percentFromBasisPoints } from '../../kernel/money.ts';
import type { ResolvedPrice } from './price-resolution.ts';
import type {
  ActionPriceRow,
  AgreementPriceRow,
  AgreementRow,
  LineDiscountRow,
  ListPriceRow,
  LivePriceRow,
} from './pricing-repository.ts';

/** B2BGETPRICE.ARTICLES[]: the documented shape, keys with spaces included. */
export interface PriceArticleWire {
  ARTICLE: string;
  RECOMMENDED: PriceGroupWire[];
  SELLING: PriceGroupWire[];
}
export interface PriceGroupWire {
  PRICEGROUP: number;
  'PRICE PER CURRENCY': Array<{
    CURRENCY: string;
    'PRICE PER SIZE': Array<{ PRICE: number; SIZEX: string }>;
  }>;
}

export interface ListPriceKeyWire {
  ARTICLE: string;
  PRICETYPE: 'RECOMMENDED' | 'SELLING';
  PRICEGROUP: number;
  CURRENCY: string;
  SIZEX: string;
}
export interface ListPriceWire extends ListPriceKeyWire {
  PRICE: number;
  SCN: number;
}

export interface AgreementWire {
  AGREEMENT: number;
  CUSTOMER: number | null;
  CUSTOMERGROUP: string | null;
  ARTICLE: string | null;
  MODEL: string | null;
  ARTICLEGROUP: string | null;
  MINQUANTITY: number;
  VALIDFROM: string;
  VALIDTO: string | null;
  TYPE: 'NETPRICE' | 'DISCOUNT';
  DISCOUNTPERC: number | null;
  NETPRICES: Array<{ CURRENCY: string; PRICE: number }>;
  SCN: number;
}

export interface LineDiscountWire {
  LINEDISCOUNT: number;
  CUSTOMER: number;
  MODEL: string | null;
  ARTICLEGROUP: string | null;
  DISCOUNTPERC: number;
  VALIDFROM: string;
  VALIDTO: string | null;
  SCN: number;
}

export interface ActionPriceWire {
  ACTIONPRICE: number;
  ARTICLE: string;
  /** Null: every size of the article. */
  SIZEX: string | null;
  CURRENCY: string;
  PRICE: number;
  STARTDATE: string;
  ENDDATE: string;
  SCN: number;
}

export interface ArticlePriceWire {
  CUSTOMER: number;
  ARTICLE: string;
  SIZEX: string;
  QUANTITY: number;
  DATE: string;
  CURRENCY: string;
  PRICEGROUP: number;
  RULE: ResolvedPrice['rule'];
  LISTPRICE: number;
  RECOMMENDEDPRICE: number | null;
  DISCOUNTPERC: number | null;
  NETPRICE: number;
  LINEAMOUNT: number;
  AGREEMENT: number | null;
  LINEDISCOUNT: number | null;
}

/**
 * Groups live price rows into the B2BGETPRICE article objects, in the order of `articleNos`: price
 * groups ascending, currencies alphabetical, sizes in the article's size order (`sizes`, by article,
 * as the catalogue lists them; a size the article no longer has comes after its sizes).
 */
export function pricesToWire(
  articleNos: readonly string[],
  rows: readonly LivePriceRow[],
  sizes: ReadonlyMap<string, readonly string[]>,
): PriceArticleWire[] {
  const rowsOf = new Map<string, LivePriceRow[]>();
  for (const row of rows) {
    const list = rowsOf.get(row.article_no);
    if (list) list.push(row);
    else rowsOf.set(row.article_no, [row]);
  }
  return articleNos.map((articleNo) => {
    const article: PriceArticleWire = { ARTICLE: articleNo, RECOMMENDED: [], SELLING: [] };
    const order = sizes.get(articleNo) ?? [];
    const ranked = (rowsOf.get(articleNo) ?? []).map((row) => {
      const at = order.indexOf(row.sizex);
      return { row, rank: at < 0 ? order.length : at };
    });
    ranked.sort(
      (a, b) =>
        a.row.price_group - b.row.price_group ||
        compare(a.row.currency, b.row.currency) ||
        a.rank - b.rank ||
        compare(a.row.sizex, b.row.sizex),
    );
    for (const { row } of ranked) {
      const groups = article[row.price_type];
      let group = groups.find((g) => g.PRICEGROUP === row.price_group);
      if (!group) {
        group = { PRICEGROUP: row.price_group, 'PRICE PER CURRENCY': [] };
        groups.push(group);
      }
      let currency = group['PRICE PER CURRENCY'].at(-1);
      if (currency?.CURRENCY !== row.currency) {
        currency = { CURRENCY: row.currency, 'PRICE PER SIZE': [] };
        group['PRICE PER CURRENCY'].push(currency);
      }
      currency['PRICE PER SIZE'].push({ PRICE: fromMinor(Number(row.price_minor)), SIZEX: row.sizex });
    }
    return article;
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function listPriceKeyToWire(row: ListPriceRow): ListPriceKeyWire {
  return {
    ARTICLE: row.article_no,
    PRICETYPE: row.price_type,
    PRICEGROUP: row.price_group,
    CURRENCY: row.currency,
    SIZEX: row.sizex,
  };
}

export function listPriceToWire(row: ListPriceRow): ListPriceWire {
  return { ...listPriceKeyToWire(row), PRICE: fromMinor(Number(row.price_minor)), SCN: Number(row.scn) };
}

export function agreementToWire(row: AgreementRow, prices: readonly AgreementPriceRow[]): AgreementWire {
  return {
    AGREEMENT: Number(row.id),
    CUSTOMER: row.customer_no,
    CUSTOMERGROUP: row.customer_group,
    ARTICLE: row.scope === 'ARTICLE' ? row.scope_value : null,
    MODEL: row.scope === 'MODEL' ? row.scope_value : null,
    ARTICLEGROUP: row.scope === 'ARTICLEGROUP' ? row.scope_value : null,
    MINQUANTITY: row.min_quantity,
    VALIDFROM: row.valid_from,
    VALIDTO: row.valid_to,
    TYPE: row.kind,
    DISCOUNTPERC: row.discount_bp === null ? null : percentFromBasisPoints(row.discount_bp),
    NETPRICES: prices
      .filter((p) => p.agreement_id === Number(row.id))
      .map((p) => ({ CURRENCY: p.currency, PRICE: fromMinor(p.price_minor) })),
    SCN: Number(row.scn),
  };
}

export function lineDiscountToWire(row: LineDiscountRow): LineDiscountWire {
  return {
    LINEDISCOUNT: Number(row.id),
    CUSTOMER: row.customer_no,
    MODEL: row.scope === 'MODEL' ? row.scope_value : null,
    ARTICLEGROUP: row.scope === 'ARTICLEGROUP' ? row.scope_value : null,
    DISCOUNTPERC: percentFromBasisPoints(row.discount_bp),
    VALIDFROM: row.valid_from,
    VALIDTO: row.valid_to,
    SCN: Number(row.scn),
  };
}

export function actionPriceToWire(row: ActionPriceRow): ActionPriceWire {
  return {
    ACTIONPRICE: Number(row.id),
    ARTICLE: row.article_no,
    SIZEX: row.sizex,
    CURRENCY: row.currency,
    PRICE: fromMinor(Number(row.price_minor)),
    STARTDATE: row.start_date,
    ENDDATE: row.end_date,
    SCN: Number(row.scn),
  };
}

export function articlePriceToWire(
  request: { customerNo: number; articleNo: string; sizex: string; quantity: number; date: string },
  resolved: ResolvedPrice,
  recommended: number | undefined,
): ArticlePriceWire {
  return {
    CUSTOMER: request.customerNo,
    ARTICLE: request.articleNo,
    SIZEX: request.sizex,
    QUANTITY: request.quantity,
    DATE: request.date,
    CURRENCY: resolved.currency,
    PRICEGROUP: resolved.priceGroup,
    RULE: resolved.rule,
    LISTPRICE: fromMinor(resolved.listPrice),
    RECOMMENDEDPRICE: recommended === undefined ? null : fromMinor(recommended),
    DISCOUNTPERC: resolved.discountBp === null ? null : percentFromBasisPoints(resolved.discountBp),
    NETPRICE: fromMinor(resolved.netPrice),
    LINEAMOUNT: fromMinor(resolved.netPrice * request.quantity),
    AGREEMENT: resolved.agreementId,
    LINEDISCOUNT: resolved.lineDiscountId,
  };
}
