import { describe, expect, it } from 'vitest';
import { clientsContext } from './clients-context.ts';

const ctx = clientsContext();
const { create, get } = ctx;

describe('user messages', () => {
  it('lists without marking read; reading one (strmessage) marks it read', async () => {
    const no = await create();
    const { messageNo: m1 } = await ctx.t.services.clients.messages.sendMessage(no, {
      subject: 'Welkom',
      body: 'Fijn dat je er bent.',
    });
    const { messageNo: m2 } = await ctx.t.services.clients.messages.sendMessage(no, {
      subject: 'Actie',
      body: '20% korting.',
    });

    const list = (await get('B2C_GetUserMessages', { strclient: String(no) })).B2CGETUSERMESSAGES;
    expect(list.UNREAD).toBe(2);
    expect(list.MESSAGES.map((m: { MESSAGENO: number }) => m.MESSAGENO)).toEqual([m2, m1]);
    expect(list.MESSAGES[0]).toMatchObject({
      SUBJECT: 'Actie',
      BODY: '20% korting.',
      READ: false,
      READAT: null,
    });

    const read = (await get('B2C_GetUserMessages', { strclient: String(no), strmessage: String(m1) }))
      .B2CGETUSERMESSAGES;
    expect(read.UNREAD).toBe(1);
    expect(read.MESSAGES).toEqual([expect.objectContaining({ MESSAGENO: m1, READ: true })]);
    const readAt = read.MESSAGES[0].READAT;
    const again = (await get('B2C_GetUserMessages', { strclient: String(no), strmessage: String(m1) }))
      .B2CGETUSERMESSAGES;
    expect(again.MESSAGES[0].READAT).toBe(readAt);

    const unread = (await get('B2C_GetUserMessages', { strclient: String(no), strunread: '1' }))
      .B2CGETUSERMESSAGES;
    expect(unread.MESSAGES.map((m: { MESSAGENO: number }) => m.MESSAGENO)).toEqual([m2]);

    const missing = await ctx.t.call('GET', 'B2C_GetUserMessages', {
      token: ctx.token,
      query: { strclient: String(no), strmessage: '99999999' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('MESSAGE_NOT_FOUND');
    await expect(
      ctx.t.services.clients.messages.sendMessage(no, { subject: ' ', body: 'x' }),
    ).rejects.toMatchObject({
      errors: [{ name: '/SUBJECT' }],
    });
  });
});

describe('client actions', () => {
  it('offers actions to everyone, to one client or to a member level, and lets each be claimed once', async () => {
    const gold = await create();
    await ctx.t.services.clients.profiles.saveClient({
      clientNo: gold,
      memberCard: { cardNo: `G-${gold}`, level: 'GOLD', validFrom: '2020-01-01', validTo: '2099-12-31' },
    });
    const plain = await create();
    const d = (text: string) => ({ LANGUAGE_1: text, LANGUAGE_2: text });
    await ctx.t.services.clients.messages.saveAction({
      code: 'ALL10',
      description: d('10 off'),
      validFrom: '2020-01-01',
      validTo: '2099-12-31',
    });
    await ctx.t.services.clients.messages.saveAction({
      code: 'GOLD20',
      description: d('20 off'),
      memberLevel: 'GOLD',
      validFrom: '2020-01-01',
      validTo: '2099-12-31',
    });
    await ctx.t.services.clients.messages.saveAction({
      code: `BDAY-${plain}`,
      description: d('Birthday'),
      clientNo: plain,
      validFrom: '2020-01-01',
      validTo: '2099-12-31',
    });
    await ctx.t.services.clients.messages.saveAction({
      code: 'OLD',
      description: d('Old'),
      validFrom: '2020-01-01',
      validTo: '2020-12-31',
    });

    const codes = async (no: number) =>
      (await get('B2C_GetClientActions', { strclient: String(no) })).B2CGETCLIENTACTIONS.ACTIONS.map(
        (a: { ACTION: string }) => a.ACTION,
      );
    expect((await codes(gold)).sort()).toEqual(['ALL10', 'GOLD20']);
    expect((await codes(plain)).sort()).toEqual(['ALL10', `BDAY-${plain}`]);

    const claim = (no: number, action: string) =>
      ctx.t.call('GET', 'B2C_ClaimClientAction', {
        token: ctx.token,
        query: { strclient: String(no), straction: action },
      });
    const ok = await claim(gold, 'GOLD20');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().B2CCLAIMCLIENTACTION.ACTIONS[0]).toMatchObject({
      ACTION: 'GOLD20',
      CLAIMED: true,
      DESCRIPTION: { LANGUAGE_1: '20 off', LANGUAGE_3: '' },
    });
    const twice = await claim(gold, 'GOLD20');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('ACTION_ALREADY_CLAIMED');
    const listed = (await get('B2C_GetClientActions', { strclient: String(gold) })).B2CGETCLIENTACTIONS
      .ACTIONS;
    expect(listed.find((a: { ACTION: string }) => a.ACTION === 'GOLD20').CLAIMED).toBe(true);
    expect(listed.find((a: { ACTION: string }) => a.ACTION === 'ALL10').CLAIMED).toBe(false);

    expect((await claim(plain, 'GOLD20')).json().code).toBe('ACTION_NOT_FOUND');
    expect((await claim(gold, `BDAY-${plain}`)).statusCode).toBe(404);
    expect((await claim(gold, 'NOPE')).statusCode).toBe(404);
    const old = await claim(gold, 'OLD');
    expect(old.statusCode).toBe(409);
    expect(old.json().code).toBe('ACTION_NOT_VALID');
    expect((await claim(plain, `BDAY-${plain}`)).statusCode).toBe(200);
  });
});
