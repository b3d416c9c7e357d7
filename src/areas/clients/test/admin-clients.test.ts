import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { IMPORT_KINDS } from '../../../areas.ts';
import { runImport } from '../../../kernel/import/run-import.ts';

let t: TestApp;
let admin: string;
let retail: string;

const names = (res: { json(): { errors: Array<{ name: string }> } }) => res.json().errors.map((e) => e.name);
const send = (method: 'PUT' | 'POST', url: string, payload: unknown) => t.send(admin, method, url, payload);
const get = async (op: string, query: Record<string, string>) => {
  const res = await t.call('GET', op, { token: retail, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.tokenFor(['ADMIN']);
  retail = await t.tokenFor(['B2C']);
});
afterAll(() => t.close());

describe('retail clients through the import and the admin area', () => {
  it('imports clients with their member cards; a second import changes nothing', async () => {
    const first = await runImport(t.services, IMPORT_KINDS.clients!, 'examples/clients.csv');
    expect(first).toMatchObject({ records: 2, written: 2, rejected: [] });
    expect(await runImport(t.services, IMPORT_KINDS.clients!, 'examples/clients.csv')).toMatchObject({
      written: 0,
      unchanged: 2,
    });
    const card = (await get('B2C_GetClientMemberCardInfo', { strclient: '200001' }))
      .B2CGETCLIENTMEMBERCARDINFO;
    expect(card).toMatchObject({ CARDNO: 'TV2-00200001', LEVEL: 'GOLD' });
    const client = (await get('B2C_GetClient', { strclient: '200002' })).B2CGETCLIENT.CLIENTS[0];
    expect(client).toMatchObject({ EMAIL: 'pieter.peeters@example.be', COUNTRY: 'BE', HOMESHOP: 'GNT' });
  });

  it('changes a client and names a bad field in the wire terms', async () => {
    const ok = await send('PUT', '/TV2/Admin/clients/200002', {
      CLIENT: 200002,
      CITY: 'Antwerpen',
      POSTALCODE: '2000',
    });
    expect(ok.json()).toEqual({ CLIENT: 200002, CREATED: false, CHANGED: true });
    const bad = await send('PUT', '/TV2/Admin/clients/200002', { CLIENT: 200002, POSTALCODE: '20000' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].name).toBe('/POSTALCODE');
  });

  it('takes a client back as B2C_GetClient answers it: consents as read, unchanged, their times kept', async () => {
    await send('PUT', '/TV2/Admin/clients/200002', {
      CLIENT: 200002,
      CONSENTS: { NEWSLETTER: true, SMS: false },
    });
    const read = (await get('B2C_GetClient', { strclient: '200002' })).B2CGETCLIENT.CLIENTS[0];
    expect(read.CONSENTS.NEWSLETTER).toMatchObject({ GIVEN: true });
    const back = await send('PUT', '/TV2/Admin/clients/200002', read);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toEqual({ CLIENT: 200002, CREATED: false, CHANGED: false });
    expect((await get('B2C_GetClient', { strclient: '200002' })).B2CGETCLIENT.CLIENTS[0]).toEqual(read);
    // a consent read as given and sent back as withdrawn is withdrawn; GIVENAT is the server's
    const withdrawn = await send('PUT', '/TV2/Admin/clients/200002', {
      ...read,
      CONSENTS: { ...read.CONSENTS, NEWSLETTER: { GIVEN: false, GIVENAT: read.CONSENTS.NEWSLETTER.GIVENAT } },
    });
    expect(withdrawn.json()).toMatchObject({ CHANGED: true });
    const after = (await get('B2C_GetClient', { strclient: '200002' })).B2CGETCLIENT.CLIENTS[0];
    expect(after.CONSENTS.NEWSLETTER).toEqual({ GIVEN: false, GIVENAT: null });
    const bad = await send('PUT', '/TV2/Admin/clients/200002', {
      CLIENT: 200002,
      CONSENTS: { SMS: { GIVEN: 'yes' }, PROFILING: { GIVEN: true, WHEN: 'now' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(names(bad)).toEqual(expect.arrayContaining(['/CONSENTS/SMS', '/CONSENTS/PROFILING']));
  });

  it('names the fields whose form is wrong by their pointers: the record schema checks them', async () => {
    const bad = await send('PUT', '/TV2/Admin/clients/0', {
      CLIENT: '0',
      CITY: 'x'.repeat(81),
      LASTNAME: 'Bell\u0007',
      HOMESHOP: 'no spaces',
      MEMBERCARD: { CARDNO: 'ab', LEVEL: 'gold', VALIDFROM: '2026-01-01', VALIDTO: '2026-12-31' },
    });
    expect(bad.statusCode).toBe(400);
    // The member card is an object or null: the union names the card itself as well.
    expect(names(bad).sort()).toEqual([
      '/CITY',
      '/CLIENT',
      '/HOMESHOP',
      '/LASTNAME',
      '/MEMBERCARD',
      '/MEMBERCARD/CARDNO',
      '/MEMBERCARD/LEVEL',
    ]);
    // What the schema cannot say, the service does, with the same names.
    const order = await send('PUT', '/TV2/Admin/clients/200002', {
      CLIENT: 200002,
      BIRTHDATE: '1899-12-31',
      MEMBERCARD: { CARDNO: 'CARD-9', LEVEL: 'GOLD', VALIDFROM: '2026-01-01', VALIDTO: '2025-12-31' },
    });
    expect(order.statusCode).toBe(400);
    expect(names(order)).toEqual(['/BIRTHDATE', '/MEMBERCARD/VALIDTO']);

    const item = await send('PUT', '/TV2/Admin/clients/200001/onaccount/-X', {
      DOCUMENTTYPE: 'INVOICE',
      DOCUMENTDATE: '2026-02-30',
      CURRENCY: 'EUR',
      AMOUNT: 10,
      OPEN: 20,
    });
    expect(item.statusCode).toBe(400);
    expect(names(item)).toEqual(['documentno']);
    const amounts = await send('PUT', '/TV2/Admin/clients/200001/onaccount/X-1', {
      DOCUMENTTYPE: 'INVOICE',
      DOCUMENTDATE: '2026-02-30',
      CURRENCY: 'EUR',
      AMOUNT: 10,
      OPEN: 20,
    });
    expect(names(amounts)).toEqual(['/DOCUMENTDATE', '/OPEN']);

    const action = { DESCRIPTION: { LANGUAGE_1: 'x' }, VALIDFROM: '2026-01-01', VALIDTO: '2026-12-31' };
    const code = await send('PUT', '/TV2/Admin/clientactions/lower', action);
    expect(code.statusCode).toBe(400);
    expect(names(code)).toEqual(['action']);
    const level = await send('PUT', '/TV2/Admin/clientactions/SPRING', { ...action, MEMBERLEVEL: 'gold' });
    expect(level.statusCode).toBe(400);
    expect(names(level)).toEqual(['/MEMBERLEVEL']);
    const dates = await send('PUT', '/TV2/Admin/clientactions/SPRING', {
      DESCRIPTION: { LANGUAGE_1: ' ' },
      CLIENT: 999_999,
      VALIDFROM: '2026-06-01',
      VALIDTO: '2026-05-31',
    });
    expect(names(dates)).toEqual(['/VALIDTO', '/DESCRIPTION']);
    const nobody = await send('PUT', '/TV2/Admin/clientactions/SPRING', {
      DESCRIPTION: { LANGUAGE_1: 'Lente' },
      CLIENT: 999_999,
      VALIDFROM: '2026-05-01',
      VALIDTO: '2026-05-31',
    });
    expect(names(nobody)).toEqual(['/CLIENT']);
    const blank = await send('POST', '/TV2/Admin/clients/200001/messages', { SUBJECT: ' ', BODY: 'x' });
    expect(names(blank)).toEqual(['/SUBJECT']);
  });

  it('books on-account items, sends messages and offers actions the client then sees', async () => {
    const booked = await send('PUT', '/TV2/Admin/clients/200001/onaccount/INV-2026-0042', {
      DOCUMENTTYPE: 'INVOICE',
      DOCUMENTDATE: '2026-11-01',
      DUEDATE: '2026-12-01',
      CURRENCY: 'EUR',
      AMOUNT: '149.95',
      OPEN: 49.95,
    });
    expect(booked.statusCode, booked.body).toBe(200);
    const open = (await get('B2C_GetClient_OpenOnAccount', { strclient: '200001' }))
      .B2CGETCLIENTOPENONACCOUNT;
    expect(open.TOTALS).toEqual([{ CURRENCY: 'EUR', OPEN: 49.95 }]);

    const sent = await send('POST', '/TV2/Admin/clients/200001/messages', {
      SUBJECT: 'Welkom',
      BODY: 'Fijn dat je er bent.',
    });
    expect(sent.statusCode).toBe(200);
    const messages = (await get('B2C_GetUserMessages', { strclient: '200001' })).B2CGETUSERMESSAGES;
    expect(messages.UNREAD).toBe(1);

    const offered = await send('PUT', '/TV2/Admin/clientactions/GOLDWEEK', {
      DESCRIPTION: { LANGUAGE_1: 'Goudweek: 20% korting' },
      MEMBERLEVEL: 'GOLD',
      VALIDFROM: '2026-01-01',
      VALIDTO: '2099-12-31',
    });
    expect(offered.statusCode, offered.body).toBe(204);
    const gold = (await get('B2C_GetClientActions', { strclient: '200001' })).B2CGETCLIENTACTIONS.ACTIONS;
    expect(gold.map((a: { ACTION: string }) => a.ACTION)).toContain('GOLDWEEK');
    const other = (await get('B2C_GetClientActions', { strclient: '200002' })).B2CGETCLIENTACTIONS.ACTIONS;
    expect(other.map((a: { ACTION: string }) => a.ACTION)).not.toContain('GOLDWEEK');
  });
});
