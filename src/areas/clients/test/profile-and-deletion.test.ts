import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ClientRepository } from '../client-repository.ts';
import { ClientService, DELETION_GRACE_DAYS } from '../client-service.ts';
import { clientsContext } from './clients-context.ts';

const ctx = clientsContext();
const { freshEmail, post, create, get } = ctx;

describe('B2C_PostClient and B2C_GetClient', () => {
  it('creates a client with normalised contact data and finds it by number and by e-mail', async () => {
    const email = freshEmail();
    const res = await post({
      EMAIL: `  ${email.toUpperCase()} `,
      FIRSTNAME: 'Sanne',
      MIDDLENAME: 'van der',
      LASTNAME: 'Berg',
      PHONE: '06-1234 5678',
      ADDRESS: 'Keizersgracht',
      HOUSENUMBER: '12a',
      POSTALCODE: '1015cs',
      CITY: 'Amsterdam',
      COUNTRY: 'nl',
      BIRTHDATE: '1990-04-01',
      LANGUAGE: 'LANGUAGE_1',
      CONSENTS: { NEWSLETTER: true, SMS: false },
      HOMESHOP: 'AMS',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().B2CPOSTCLIENT;
    expect(body.CREATED).toBe(true);
    expect(body.CLIENT).toBeGreaterThanOrEqual(100_001);
    const client = body.CLIENTS[0];
    expect(client).toMatchObject({
      CLIENT: body.CLIENT,
      EMAIL: email.toUpperCase(),
      PHONE: '+31612345678',
      POSTALCODE: '1015 CS',
      COUNTRY: 'NL',
      BIRTHDATE: '1990-04-01',
      MIDDLENAME: 'van der',
      HOMESHOP: 'AMS',
      MEMBERCARD: null,
      HASPROFILEPHOTO: false,
      MARKEDFORDELETION: false,
      DELETIONDUE: null,
    });
    expect(client.CONSENTS.NEWSLETTER.GIVEN).toBe(true);
    expect(client.CONSENTS.NEWSLETTER.GIVENAT).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(client.CONSENTS.SMS).toEqual({ GIVEN: false, GIVENAT: null });
    expect(client.CREATED).toMatch(/Z$/);

    const byNo = (await get('B2C_GetClient', { strclient: String(body.CLIENT) })).B2CGETCLIENT.CLIENTS;
    expect(byNo).toEqual([client]);
    const byEmail = (await get('B2C_GetClient', { stremail: email })).B2CGETCLIENT.CLIENTS;
    expect(byEmail[0].CLIENT).toBe(body.CLIENT);
  });

  it('changes only the given fields, clears with null, and moves no SCN for an unchanged post', async () => {
    const no = await create({
      PHONE: '+32 470 12 34 56',
      COUNTRY: 'BE',
      POSTALCODE: '1000',
      CITY: 'Brussel',
    });
    const before = (await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0];
    const res = await post({ CLIENT: no, CITY: 'Bruxelles', PHONE: null });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json().B2CPOSTCLIENT;
    expect(after.CREATED).toBe(false);
    expect(after.CLIENTS[0]).toMatchObject({
      CITY: 'Bruxelles',
      PHONE: '',
      POSTALCODE: '1000',
      FIRSTNAME: 'Anna',
    });
    expect(after.CLIENTS[0].SCN).toBeGreaterThan(before.SCN);
    const again = (await post({ CLIENT: no, CITY: 'Bruxelles' })).json().B2CPOSTCLIENT.CLIENTS[0];
    expect(again.SCN).toBe(after.CLIENTS[0].SCN);
  });

  it('stamps a consent when given, keeps the instant when repeated, clears it when withdrawn', async () => {
    const no = await create({ CONSENTS: { PROFILING: true } });
    const first = (await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0];
    const given = first.CONSENTS.PROFILING.GIVENAT;
    expect(first.CONSENTS.PROFILING.GIVEN).toBe(true);
    expect(given).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(Math.abs(Date.parse(given) - Date.now())).toBeLessThan(60_000);
    await new Promise((r) => setTimeout(r, 1100));
    const repeated = (await post({ CLIENT: no, CONSENTS: { PROFILING: true, SMS: true } })).json()
      .B2CPOSTCLIENT.CLIENTS[0];
    expect(repeated.CONSENTS.PROFILING.GIVENAT).toBe(given);
    expect(repeated.CONSENTS.SMS.GIVENAT > given).toBe(true);
    const withdrawn = (await post({ CLIENT: no, CONSENTS: { PROFILING: false } })).json().B2CPOSTCLIENT
      .CLIENTS[0];
    expect(withdrawn.CONSENTS.PROFILING).toEqual({ GIVEN: false, GIVENAT: null });
    expect(withdrawn.CONSENTS.SMS.GIVEN).toBe(true);
  });

  it('refuses a second client with the same e-mail address, in any case', async () => {
    const email = freshEmail();
    await create({ EMAIL: email });
    const dup = await post({ EMAIL: email.toUpperCase(), LASTNAME: 'Other' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('EMAIL_TAKEN');
    const other = await create();
    const change = await post({ CLIENT: other, EMAIL: email });
    expect(change.statusCode).toBe(409);
    expect(change.json().code).toBe('EMAIL_TAKEN');
  });

  it.each([
    [{ EMAIL: 'not-an-address' }, '/CLIENTDATA/EMAIL'],
    [{ EMAIL: 'a@b' }, '/CLIENTDATA/EMAIL'],
    [{ EMAIL: 'a..b@example.nl' }, '/CLIENTDATA/EMAIL'],
    [{ PHONE: '12345', COUNTRY: 'NL' }, '/CLIENTDATA/PHONE'],
    [{ PHONE: '0612345678' }, '/CLIENTDATA/PHONE'],
    [{ PHONE: '+31 6 abc' }, '/CLIENTDATA/PHONE'],
    [{ POSTALCODE: '0123 AB', COUNTRY: 'NL' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '1234 SA', COUNTRY: 'NL' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '10000', COUNTRY: 'BE' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '1011', COUNTRY: 'DE' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '7500', COUNTRY: 'FR' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '12345', COUNTRY: 'GB' }, '/CLIENTDATA/POSTALCODE'],
    [{ POSTALCODE: '#!', COUNTRY: 'US' }, '/CLIENTDATA/POSTALCODE'],
    [{ COUNTRY: 'XX' }, '/CLIENTDATA/COUNTRY'],
    [{ BIRTHDATE: '1990-02-30' }, '/CLIENTDATA/BIRTHDATE'],
    [{ BIRTHDATE: '30-02-1990' }, '/CLIENTDATA/BIRTHDATE'],
    [{ FIRSTNAME: 'Anna\u0007' }, '/CLIENTDATA/FIRSTNAME'],
    [{ HOMESHOP: 'no spaces' }, '/CLIENTDATA/HOMESHOP'],
    [{ LANGUAGE: 'nl' }, '/CLIENTDATA/LANGUAGE'],
    [{ CONSENTS: { MARKETING: true } }, '/CLIENTDATA/CONSENTS/MARKETING'],
    [{ MEMBERCARD: { CARDNO: 'X' } }, '/CLIENTDATA/MEMBERCARD'],
  ])('answers 400 naming the field for %j', async (data, pointer) => {
    const res = await post({ EMAIL: freshEmail(), LASTNAME: 'Jansen', ...data });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.map((e: { name: string }) => e.name)).toContain(pointer);
  });

  it('accepts postal codes of NL, BE, DE, FR, GB and others in their normal form', async () => {
    const cases: Array<[string, string, string]> = [
      ['NL', '2511cv', '2511 CV'],
      ['BE', '9000', '9000'],
      ['DE', '10115', '10115'],
      ['FR', '75001', '75001'],
      ['GB', 'sw1a1aa', 'SW1A 1AA'],
      ['GB', 'M1 1AE', 'M1 1AE'],
      ['US', '94103-1234', '94103-1234'],
    ];
    for (const [country, given, stored] of cases) {
      const res = await post({ EMAIL: freshEmail(), LASTNAME: 'X', COUNTRY: country, POSTALCODE: given });
      expect(res.statusCode, `${country} ${given}: ${res.body}`).toBe(200);
      expect(res.json().B2CPOSTCLIENT.CLIENTS[0].POSTALCODE).toBe(stored);
    }
  });

  it('checks the stored postal code again when the country changes', async () => {
    const no = await create({ COUNTRY: 'DE', POSTALCODE: '10115' });
    const res = await post({ CLIENT: no, COUNTRY: 'NL' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].name).toBe('/CLIENTDATA/POSTALCODE');
  });

  it('needs EMAIL and LASTNAME to create, and a known client to change', async () => {
    const res = await post({ FIRSTNAME: 'X' });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: { name: string }) => e.name)
        .sort(),
    ).toEqual(['/CLIENTDATA/EMAIL', '/CLIENTDATA/LASTNAME']);
    const unknown = await post({ CLIENT: 999_999, CITY: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('CLIENT_NOT_FOUND');
  });

  it('answers 404 for an unknown client and 400 without a client number', async () => {
    const res = await ctx.t.call('GET', 'B2C_GetClient', {
      token: ctx.token,
      query: { strclient: '999999' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('CLIENT_NOT_FOUND');
    const none = await ctx.t.call('GET', 'B2C_GetClient', { token: ctx.token });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].name).toBe('strclient');
  });
});

describe('marked for deletion and anonymisation', () => {
  it('marks and unmarks; after the grace period anonymises personal data and keeps the accounting', async () => {
    const email = freshEmail();
    const no = await create({
      EMAIL: email,
      PHONE: '+31612345678',
      ADDRESS: 'Dorpsstraat',
      HOUSENUMBER: '1',
      POSTALCODE: '1234 AB',
      CITY: 'Ergens',
      COUNTRY: 'NL',
      BIRTHDATE: '1980-05-05',
      CONSENTS: { NEWSLETTER: true },
      HOMESHOP: 'UTR',
    });
    await ctx.t.services.clients.profiles.saveClient({
      clientNo: no,
      memberCard: { cardNo: `D-${no}`, level: 'SILVER', validFrom: '2020-01-01', validTo: '2099-12-31' },
    });
    await ctx.t.services.clients.purchases.recordPurchase({
      clientNo: no,
      source: 'WEB',
      reference: `DEL-${no}`,
      purchasedAt: '2026-01-01T12:00:00Z',
      currency: 'EUR',
      lines: [{ articleNo: 'A1', sizex: 'M', quantity: 1, unitPriceMinor: 1000, amountMinor: 1000 }],
    });
    await ctx.t.services.clients.purchases.saveOnAccountEntry({
      clientNo: no,
      documentNo: `DEL-INV-${no}`,
      documentType: 'INVOICE',
      documentDate: '2026-01-01',
      currency: 'EUR',
      amountMinor: 1000,
      openMinor: 1000,
    });
    await ctx.t.services.clients.messages.sendMessage(no, { subject: 'Hallo', body: 'Persoonlijk bericht' });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#abc' } })
      .png()
      .toBuffer();
    await ctx.t.services.clients.profiles.putProfilePhoto(no, png);

    // The clock of this service is ours to move.
    let clock = new Date('2026-05-01T08:00:00Z');
    const service = new ClientService(ctx.t.database, () => clock);

    const mark = await ctx.t.call('GET', 'B2C_UpdateMarkedForDeletion', {
      token: ctx.token,
      query: { strclient: String(no), strflag: '1' },
    });
    expect(mark.statusCode, mark.body).toBe(200);
    expect(mark.json().B2CUPDATEMARKEDFORDELETION).toMatchObject({ CLIENT: no, MARKEDFORDELETION: true });
    const unmark = await ctx.t.call('GET', 'B2C_UpdateMarkedForDeletion', {
      token: ctx.token,
      query: { strclient: String(no), strflag: '0' },
    });
    expect(unmark.json().B2CUPDATEMARKEDFORDELETION).toMatchObject({
      MARKEDFORDELETION: false,
      MARKEDFORDELETIONAT: null,
      DELETIONDUE: null,
    });

    const marked = await service.setMarkedForDeletion(no, true);
    expect(marked.markedAt).toBe('2026-05-01T08:00:00.000Z');
    expect(marked.due).toBe('2026-05-31T08:00:00.000Z');
    clock = new Date('2026-05-10T08:00:00Z');
    expect((await service.setMarkedForDeletion(no, true)).markedAt).toBe('2026-05-01T08:00:00.000Z');
    const shown = (await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0];
    expect(shown).toMatchObject({
      MARKEDFORDELETION: true,
      MARKEDFORDELETIONAT: '2026-05-01T08:00:00Z',
      DELETIONDUE: '2026-05-31T08:00:00Z',
    });

    expect(DELETION_GRACE_DAYS).toBe(30);
    expect(await service.anonymiseDue(new Date('2026-05-31T07:59:59Z'))).not.toContain(no);
    const repo = new ClientRepository(ctx.t.database.db);
    const scnBefore = (await repo.findClient(no))?.scn ?? 0;
    expect(await service.anonymiseDue(new Date('2026-05-31T08:00:00Z'))).toContain(no);
    expect(await service.anonymiseDue(new Date('2026-06-30T08:00:00Z'))).not.toContain(no);

    const row = await repo.findClient(no);
    expect(row).toMatchObject({
      client_no: no,
      email: null,
      email_norm: null,
      first_name: null,
      middle_name: null,
      last_name: null,
      phone: null,
      address: null,
      house_number: null,
      postal_code: null,
      city: null,
      birth_date: null,
      consent_newsletter_at: null,
      card_no: null,
      card_level: null,
      anonymised: 1,
      anonymised_at: '2026-05-31T08:00:00.000Z',
      country: 'NL',
      home_shop: 'UTR',
    });
    expect(row?.scn).toBeGreaterThan(scnBefore);
    expect(await repo.findPhoto(no, 'PROFILE')).toBeUndefined();
    expect(await repo.findPhoto(no, 'CARD')).toBeUndefined();
    expect(await repo.messagesPage(no, false, 0, 10)).toEqual([]);
    // accounting stays
    expect(await repo.purchasesPage(no, 0, 0, 10)).toHaveLength(1);
    expect(await repo.onAccountEntries(no, {})).toHaveLength(1);

    const gone = await ctx.t.call('GET', 'B2C_GetClient', {
      token: ctx.token,
      query: { strclient: String(no) },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('CLIENT_NOT_FOUND');
    expect(
      (await ctx.t.call('GET', 'B2C_GetClient', { token: ctx.token, query: { stremail: email } })).statusCode,
    ).toBe(404);
    // the address is free again
    const again = await post({ EMAIL: email, LASTNAME: 'Nieuw' });
    expect(again.statusCode).toBe(200);
    expect(again.json().B2CPOSTCLIENT.CLIENT).not.toBe(no);
  });

  it('does not anonymise a client whose request was taken back', async () => {
    const no = await create();
    let clock = new Date('2026-01-01T00:00:00Z');
    const service = new ClientService(ctx.t.database, () => clock);
    await service.setMarkedForDeletion(no, true);
    clock = new Date('2026-01-15T00:00:00Z');
    await service.setMarkedForDeletion(no, false);
    expect(await service.anonymiseDue(new Date('2026-12-31T00:00:00Z'))).not.toContain(no);
    expect((await get('B2C_GetClient', { strclient: String(no) })).B2CGETCLIENT.CLIENTS[0].LASTNAME).toBe(
      'Jansen',
    );
  });
});
