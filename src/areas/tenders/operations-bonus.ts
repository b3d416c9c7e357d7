import { Type } from 'typebox';
import type { Principal } from '../../kernel/access/principal.ts';
import { assertOwnClientKey, confinedClient } from '../../kernel/access.ts';
import { fromMinor, toMinor } from '../../kernel/money.ts';
import { operation } from '../../kernel/operation.ts';
import { digits, type PageLimits, pageParams, queryObject, toPage } from '../../kernel/params.ts';
import { NextOffsetSchema, rooted, ScnSchema } from '../../kernel/schemas.ts';
import type { Services } from '../../kernel/services.ts';
import { UNLIMITED } from './bonus-card-service.ts';
import { TENDERS_ERRORS } from './errors.ts';
import type { TenderRow } from './tender-repository.ts';

const HISTORY_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const CardNo = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The bonus card number.' });
const Value = (description: string) =>
  Type.Number({ description: `${description} In CURRENCY, two decimals.` });
const ValidUntil = Type.String({
  description: `The last day the value can be used; ${UNLIMITED} means unlimited (bonus value does not lapse).`,
});
const strcardno = digits('The bonus card number.');

/** A confined token sees its own client's card only; any other (or none) is 403 OUTSIDE_SCOPE. */
function assertOwnCard(principal: Principal | null, card: TenderRow | undefined): void {
  const own = confinedClient(principal);
  if (own !== null) assertOwnClientKey(own, card?.client_no === own);
}

async function cardFor(services: Services, principal: Principal | null, cardNo: number): Promise<TenderRow> {
  // Confined: a card that does not exist is as much "not yours" as another client's (nothing told).
  const card = await services.tenders.bonus.card(cardNo).catch((error: unknown) => {
    if (confinedClient(principal) === null) throw error;
    return undefined;
  });
  assertOwnCard(principal, card);
  if (!card) throw TENDERS_ERRORS.BONUS_CARD_NOT_FOUND(`No bonus card ${cardNo}.`);
  return card;
}

export const B2C_UpdateBonusCardValue = operation({
  name: 'B2C_UpdateBonusCardValue',
  method: 'POST',
  audience: 'B2C',
  area: 'Loyalty',
  summary: 'Update bonus card value',
  description:
    'CARDVALUE is a signed amount to ADD to the card’s value (earned: positive; spent: negative), not a new ' +
    'value: concurrent updates add up and none is lost, and no caller needs to know the value first. Exactly ' +
    'once per (CARDNO, WEBORDER): a repeat answers the first update (CREATED false); the same WEBORDER with ' +
    'another CARDVALUE is 409 TENDER_KEY_REUSED. A value that would go below 0, or a blocked card, is 409 ' +
    'BONUS_VALUE_REFUSED. The first update of an unknown CARDNO creates the card, for the client with EMAIL ' +
    '(404 CLIENT_NOT_FOUND when none has it). DATE is the business day of the change, kept in the history. ' +
    'A token confined to a client cannot change bonus value (403).',
  body: Type.Object(
    {
      CARDNO: CardNo,
      CARDVALUE: Type.Number({
        minimum: -1_000_000,
        maximum: 1_000_000,
        description: 'The signed amount to add, two decimals at most, not 0.',
      }),
      DATE: Type.String({
        pattern: '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$',
        description: 'A calendar date, YYYY-MM-DD.',
      }),
      EMAIL: Type.Optional(
        Type.String({ maxLength: 254, format: 'email', description: 'The client of a new card.' }),
      ),
      WEBORDER: Type.String({
        minLength: 1,
        maxLength: 50,
        pattern: '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$',
        description: 'What the change is for (an order); the key of the update per card.',
      }),
    },
    {
      additionalProperties: false,
      examples: [
        {
          CARDNO: 40012345,
          CARDVALUE: 2.5,
          DATE: '2026-11-26',
          EMAIL: 'anna@example.nl',
          WEBORDER: 'WEB-7731',
        },
      ],
    },
  ),
  response: rooted(
    'B2CUPDATEBONUSCARDVALUE',
    Type.Object({
      CARDNO: CardNo,
      CARDVALUE: Value('The card’s value right after this update.'),
      CHANGE: Value('What this update added (negative: took).'),
      CURRENCY: Type.String(),
      VALIDUNTIL: ValidUntil,
      DATE: Type.String(),
      WEBORDER: Type.String(),
      CREATED: Type.Boolean({ description: 'False when this answers a repeat of an earlier update.' }),
    }),
  ),
  async handler({ body, principal, services }) {
    const own = confinedClient(principal);
    if (own !== null) {
      throw TENDERS_ERRORS.TENDER_ISSUE_NOT_PERMITTED(
        `A token confined to client ${own} cannot change bonus value.`,
      );
    }
    const clientNo =
      body.EMAIL === undefined ? null : await services.clients.profiles.clientNoByEmail(body.EMAIL);
    const done = await services.tenders.bonus.update({
      cardNo: body.CARDNO,
      delta: toMinor(body.CARDVALUE, '/CARDVALUE'),
      day: body.DATE,
      reference: body.WEBORDER,
      clientNo,
    });
    return {
      B2CUPDATEBONUSCARDVALUE: {
        CARDNO: body.CARDNO,
        CARDVALUE: fromMinor(done.entry.balance_after),
        CHANGE: fromMinor(done.entry.amount),
        CURRENCY: done.card.currency,
        VALIDUNTIL: done.card.valid_until,
        DATE: done.entry.day ?? body.DATE,
        WEBORDER: done.entry.reference,
        CREATED: done.created,
      },
    };
  },
});

export const B2C_GetBonusCardValue = operation({
  name: 'B2C_GetBonusCardValue',
  method: 'GET',
  audience: 'B2C',
  area: 'Loyalty',
  summary: 'Bonus card value',
  description:
    'The card’s value now: always the sum of its history (B2C_BonuscardHistory). A token confined to a ' +
    'client sees its own client’s card only (any other number is 403 OUTSIDE_SCOPE).',
  query: queryObject({ strcardno }),
  response: rooted(
    'B2CGETBONUSCARDVALUE',
    Type.Object({
      CARDNO: CardNo,
      CARDVALUE: Value('The value now.'),
      CURRENCY: Type.String(),
      CLIENT: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
      VALIDUNTIL: ValidUntil,
      BLOCKED: Type.Boolean(),
      SCN: ScnSchema,
    }),
  ),
  async handler({ query, principal, services }) {
    const card = await cardFor(services, principal, Number(query.strcardno));
    return {
      B2CGETBONUSCARDVALUE: {
        CARDNO: Number(card.code),
        CARDVALUE: fromMinor(card.balance),
        CURRENCY: card.currency,
        CLIENT: card.client_no,
        VALIDUNTIL: card.valid_until,
        BLOCKED: card.blocked === 1,
        SCN: card.scn,
      },
    };
  },
});

export const B2C_BonuscardHistory = operation({
  name: 'B2C_BonuscardHistory',
  method: 'GET',
  audience: 'B2C',
  area: 'Loyalty',
  summary: 'Bonus card history',
  description:
    'Every change of the card’s value, oldest first, each with the value right after it; CARDVALUE is the ' +
    'value read by the same statement as the entries, so the history adds up to it. Pages by entry number ' +
    `(NEXTOFFSET), ${HISTORY_PAGE.defaultLimit} per page by default, at most ${HISTORY_PAGE.maxLimit}. ` +
    'A token confined to a client sees its own client’s card only.',
  query: queryObject({
    strcardno,
    stroffset: pageParams(HISTORY_PAGE).stroffset,
    strlimit: pageParams(HISTORY_PAGE).strlimit,
  }),
  response: rooted(
    'B2CBONUSCARDHISTORY',
    Type.Object({
      CARDNO: CardNo,
      CARDVALUE: Value('The value now.'),
      CURRENCY: Type.String(),
      ENTRIES: Type.Array(
        Type.Object({
          ENTRY: Type.Integer({ description: 'Its number (a position: pass NEXTOFFSET back as it is).' }),
          KIND: Type.String({ description: 'ADJUST for B2C_UpdateBonusCardValue.' }),
          CHANGE: Value('What it added (negative: took).'),
          CARDVALUE: Value('The value right after it.'),
          WEBORDER: Type.String(),
          DATE: Type.Union([Type.String(), Type.Null()], {
            description: 'The business day the update stated.',
          }),
          AT: Type.String({ description: 'When it was posted, ISO 8601 UTC.' }),
        }),
      ),
      NEXTOFFSET: NextOffsetSchema,
    }),
  ),
  async handler({ query, principal, services }) {
    const card = await cardFor(services, principal, Number(query.strcardno));
    const { offset, limit } = toPage(query, HISTORY_PAGE);
    const page = await services.tenders.bonus.history(card, offset, limit);
    return {
      B2CBONUSCARDHISTORY: {
        CARDNO: Number(card.code),
        CARDVALUE: fromMinor(page.value),
        CURRENCY: card.currency,
        ENTRIES: page.entries.map((e) => ({
          ENTRY: e.id,
          KIND: e.kind,
          CHANGE: fromMinor(e.amount),
          CARDVALUE: fromMinor(e.balance_after),
          WEBORDER: e.reference,
          DATE: e.day,
          AT: e.at,
        })),
        NEXTOFFSET: page.nextOffset,
      },
    };
  },
});
