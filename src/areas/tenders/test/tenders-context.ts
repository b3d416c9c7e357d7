import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { Config } from '../../../config.ts';

/**
 * The shared set-up of the tenders' HTTP tests: a fresh app (with `overrides` of its settings), a
 * B2C token of the shop and an ADMIN token, and helpers to issue, check and cash vouchers.
 */
export function tendersContext(overrides: Partial<Config> = {}) {
  let app: TestApp | undefined;
  let shop = '';
  let admin = '';
  let counter = 0;

  beforeAll(async () => {
    app = await startTestApp(overrides);
    shop = await app.tokenFor(['B2C']);
    admin = await app.tokenFor(['ADMIN']);
  });
  afterAll(() => app?.close());

  const t = (): TestApp => {
    if (!app) throw new Error('the tenders test app is there from beforeAll on');
    return app;
  };
  const unique = (prefix: string) => `${prefix}-${++counter}-${Date.now()}`;

  return {
    get t(): TestApp {
      return t();
    },
    get shop(): string {
      return shop;
    },
    get admin(): string {
      return admin;
    },
    unique,
    async newClient(): Promise<number> {
      const saved = await t().services.clients.profiles.saveClient({
        email: `${unique('holder')}@example.nl`,
        lastName: 'Holder',
      });
      return saved.clientNo;
    },
    issueGift(body: Record<string, unknown>, token = shop) {
      return t().call('POST', 'B2C_PostNewGiftVoucher', { token, body: { GIFTVOUCHERDATA: body } });
    },
    issueCredit(body: Record<string, unknown>, token = shop) {
      return t().call('POST', 'B2C_PostNewCreditNoteVoucher', { token, body: { CREDITVOUCHERDATA: body } });
    },
    /** A new gift voucher worth `amount` (EUR); its code. */
    async gift(amount: number, extra: Record<string, unknown> = {}): Promise<string> {
      const res = await this.issueGift({ AMOUNT: amount, WEBID: unique('GV'), ...extra });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().B2CPOSTNEWGIFTVOUCHER.VOUCHER.CODE as string;
    },
    validate(code: string, token = shop, query: Record<string, string> = {}) {
      return t().call('GET', 'B2C_ValidateVoucher', { token, query: { strcode: code, ...query } });
    },
    cash(
      code: string,
      amount: number | string,
      reference: string,
      token = shop,
      extra: Record<string, unknown> = {},
    ) {
      return t().call('POST', 'B2C_PostCashedVoucher', {
        token,
        body: { CASHEDVOUCHERDATA: { CODE: code, AMOUNT: amount, REFERENCE: reference, ...extra } },
      });
    },
    /** The voucher's balance and entries as the back office sees them. */
    async ledger(code: string): Promise<{ balance: number; entries: { KIND: string; AMOUNT: number }[] }> {
      const res = await t().send(admin, 'GET', `/TV2/Admin/vouchers/${code}`);
      expect(res.statusCode, res.body).toBe(200);
      return { balance: res.json().VOUCHER.BALANCE, entries: res.json().ENTRIES };
    },
  };
}

export function expectProblem(res: LightMyRequestResponse, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.json().code).toBe(code);
}

/** A refusal's body without what differs per request: what a caller learns from it. */
export function refusalShape(res: LightMyRequestResponse): unknown {
  const { instance: _i, requestId: _r, ...rest } = res.json();
  return rest;
}
