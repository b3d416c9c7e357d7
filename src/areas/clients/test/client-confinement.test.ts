import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

/**
 * A token confined to one retail client (Principal.clientNo) sees and changes only that client, on
 * every operation of the clients area: another client's number is 403 OUTSIDE_SCOPE (whether that
 * client exists or not, so the answer reveals nothing), and leaving the client out means its own.
 */

let t: TestApp;
let mine: number;
let other: number;
let confined: string;
let open: string;
const MISSING = 987_654;

beforeAll(async () => {
  t = await startTestApp();
  const s = t.services.clients.profiles;
  const card = (no: number) => ({
    cardNo: `CARD-${no}`,
    level: 'GOLD',
    validFrom: '2020-01-01',
    validTo: '2099-12-31',
  });
  mine = (await s.saveClient({ email: 'mine@example.nl', firstName: 'Mijn', lastName: 'Eigen' })).clientNo;
  other = (await s.saveClient({ email: 'other@example.de', firstName: 'Andere', lastName: 'Klant' }))
    .clientNo;
  for (const no of [mine, other]) {
    await s.saveClient({ clientNo: no, memberCard: card(no) });
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#456' } })
      .png()
      .toBuffer();
    await s.putProfilePhoto(no, png);
    await t.services.clients.messages.sendMessage(no, {
      subject: `For ${no}`,
      body: `Private text of ${no}`,
    });
    await t.services.clients.purchases.recordPurchase({
      clientNo: no,
      source: 'SHOP',
      shopCode: 'AMS',
      reference: `R-${no}`,
      purchasedAt: '2026-02-01T10:00:00Z',
      currency: 'EUR',
      lines: [{ articleNo: 'A1', sizex: 'M', quantity: 1, unitPriceMinor: 995, amountMinor: 995 }],
    });
    await t.services.clients.purchases.saveOnAccountEntry({
      clientNo: no,
      documentNo: `INV-${no}`,
      documentType: 'INVOICE',
      documentDate: '2026-02-01',
      currency: 'EUR',
      amountMinor: 995,
      openMinor: 995,
    });
  }
  for (const code of ['OMIT', 'OWN', 'OTHER', 'MISSING']) {
    await t.services.clients.messages.saveAction({
      code,
      description: { LANGUAGE_2: code },
      validFrom: '2020-01-01',
      validTo: '2099-12-31',
    });
  }
  confined = await t.tokenFor(['B2C'], { clientNo: mine });
  open = await t.tokenFor(['B2C']);
});
afterAll(() => t.close());

interface Req {
  method: 'GET' | 'POST';
  query?: Record<string, string>;
  body?: unknown;
}

type Which = 'OMIT' | 'OWN' | 'OTHER' | 'MISSING';
const numberOf = (which: Which) =>
  which === 'OMIT' ? undefined : which === 'OWN' ? mine : which === 'OTHER' ? other : MISSING;
const q = (which: Which, extra: Record<string, string> = {}) => {
  const no = numberOf(which);
  return no === undefined ? extra : { strclient: String(no), ...extra };
};
const photo = () =>
  sharp({ create: { width: 16, height: 16, channels: 3, background: '#789' } })
    .jpeg()
    .toBuffer()
    .then((b) => b.toString('base64'));

/** Every operation of the area, as a request for a client (OMIT: no client given). */
const OPERATIONS: Record<string, (which: Which) => Promise<Req>> = {
  B2C_GetClient: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_PostClient: async (w) => ({
    method: 'POST',
    body: { CLIENTDATA: { ...(numberOf(w) ? { CLIENT: numberOf(w) } : {}), CITY: `City ${w}` } },
  }),
  B2C_GetClient_Purchase: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_GetClient_OnAccountDetail: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_GetClient_OpenOnAccount: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_UpdateMarkedForDeletion: async (w) => ({ method: 'GET', query: q(w, { strflag: '0' }) }),
  B2C_GetClientMemberCardInfo: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_GetMemberCardPhotoBase64: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_GetProfilePhotoBase64: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_PostProfilePhotoBase64: async (w) => ({
    method: 'POST',
    body: { PROFILEPHOTODATA: { ...(numberOf(w) ? { CLIENT: numberOf(w) } : {}), PHOTO: await photo() } },
  }),
  B2C_GetUserMessages: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_GetClientActions: async (w) => ({ method: 'GET', query: q(w) }),
  B2C_ClaimClientAction: async (w) => ({ method: 'GET', query: q(w, { straction: w }) }),
};

async function call(op: string, which: Which, token = confined) {
  const req = await (OPERATIONS[op] as (w: Which) => Promise<Req>)(which);
  return t.call(req.method, op, { token, query: req.query, body: req.body });
}

describe('a token confined to one client', () => {
  it('covers all thirteen operations of the area', () => {
    expect(Object.keys(OPERATIONS)).toHaveLength(13);
  });

  describe.each(Object.keys(OPERATIONS))('%s', (op) => {
    it('acts on its own client when the client is left out or given', async () => {
      for (const which of ['OMIT', 'OWN'] as const) {
        const res = await call(op, which);
        expect(res.statusCode, `${which}: ${res.body}`).toBe(200);
        const root = Object.values(res.json())[0] as Record<string, unknown>;
        const client = root.CLIENT ?? (root.CLIENTS as Array<{ CLIENT: number }> | undefined)?.[0]?.CLIENT;
        expect(client).toBe(mine);
        expect(res.body).not.toContain('other@example.de');
      }
    });

    it('answers 403 OUTSIDE_SCOPE for another client, existing or not, without its data', async () => {
      for (const which of ['OTHER', 'MISSING'] as const) {
        const res = await call(op, which);
        expect(res.statusCode, `${which}: ${res.body}`).toBe(403);
        expect(res.json().code).toBe('OUTSIDE_SCOPE');
        expect(res.body).not.toContain('other@example.de');
        expect(res.body).not.toContain(`Private text of ${other}`);
      }
    });
  });

  it('changed nothing of the other client', async () => {
    const s = t.services.clients.profiles;
    const client = await s.getClient(other);
    expect(client.CITY).toBe('');
    expect(client.MARKEDFORDELETION).toBe(false);
    const actions = await t.services.clients.messages.actions(other);
    expect(actions.every((a) => !a.CLAIMED)).toBe(true);
    const photoNow = await s.photo(other, 'PROFILE');
    expect(photoNow.contentType).toBe('image/png');
  });

  it('finds its own client by e-mail and no other (403, existing address or not)', async () => {
    const own = await t.call('GET', 'B2C_GetClient', {
      token: confined,
      query: { stremail: 'MINE@example.nl' },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().B2CGETCLIENT.CLIENTS[0].CLIENT).toBe(mine);
    for (const stremail of ['other@example.de', 'nobody@example.com']) {
      const res = await t.call('GET', 'B2C_GetClient', { token: confined, query: { stremail } });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('OUTSIDE_SCOPE');
    }
  });

  it('cannot create a client: a post without CLIENT changes its own, and cannot take another’s e-mail', async () => {
    const res = await t.call('POST', 'B2C_PostClient', {
      token: confined,
      body: { CLIENTDATA: { FIRSTNAME: 'Mijn2' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().B2CPOSTCLIENT).toMatchObject({ CLIENT: mine, CREATED: false });
    const taken = await t.call('POST', 'B2C_PostClient', {
      token: confined,
      body: { CLIENTDATA: { EMAIL: 'other@example.de' } },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_TAKEN');
  });

  it('while an unconfined retail token reaches any client, and a wholesale token none', async () => {
    const res = await call('B2C_GetClient', 'OTHER', open);
    expect(res.statusCode).toBe(200);
    expect(res.json().B2CGETCLIENT.CLIENTS[0].EMAIL).toBe('other@example.de');
    const b2b = await t.tokenFor(['B2B']);
    const refused = await call('B2C_GetClient', 'OTHER', b2b);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ROLE_REQUIRED');
  });
});
