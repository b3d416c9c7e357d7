import { Type } from 'typebox';
import type { Principal } from '../../kernel/access/principal.ts';
import { assertOwnClientKey, clientScope, confinedClient } from '../../kernel/access.ts';
import { ValidationError, withRoot } from '../../kernel/errors.ts';
import { FeedSchema, feedAnswer } from '../../kernel/feed-page.ts';
import { MAX_SAFE_INT } from '../../kernel/int-limits.ts';
import { operation } from '../../kernel/operation.ts';
import {
  digits,
  type PageLimits,
  pageParams,
  positiveDigits,
  queryObject,
  text,
  toPage,
  toPositiveInt,
} from '../../kernel/params.ts';
import { NextOffsetSchema, rooted, ScnSchema } from '../../kernel/schemas.ts';
import { clientInputFrom } from './client-input.ts';
import { decodeBase64Photo, MAX_PHOTO_BASE64 } from './client-photo.ts';
import {
  ActionSchema,
  ClientDataSchema,
  ClientNoSchema,
  ClientSchema,
  MemberCardSchema,
  MessageSchema,
  OnAccountSchema,
  OpenTotalSchema,
  PhotoSchema,
  ProfilePhotoDataSchema,
  PurchaseSchema,
} from './schemas.ts';

const PURCHASE_PAGE: PageLimits = { defaultLimit: 50, maxLimit: 500 };
const ON_ACCOUNT_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const MESSAGE_PAGE: PageLimits = { defaultLimit: 50, maxLimit: 500 };

const SCOPE_NOTE =
  'A token confined to one client may leave strclient out (or pass 0): it always acts on its own client, ' +
  'and asking for another client is 403 OUTSIDE_SCOPE.';

const strclient = Type.Optional(digits('Client number; optional for a token confined to one client.'));
const clientQuery = { strclient };

function clientOf(principal: Principal | null, query: { strclient?: string }): number {
  return clientScope(principal, query.strclient === undefined ? undefined : Number(query.strclient));
}

function offsetLimit(query: { stroffset?: string; strlimit?: string }, limits: PageLimits) {
  const { offset, limit } = toPage(query, limits);
  return { offset, limit };
}

export const B2C_GetClient = operation({
  name: 'B2C_GetClient',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'One client',
  description: `The client by number (strclient) or by e-mail address (stremail, any case). ${SCOPE_NOTE}`,
  query: queryObject({
    strclient,
    stremail: Type.Optional(
      text('E-mail address of the client, instead of strclient: give either one, not both.', 254),
    ),
  }),
  response: rooted(
    'B2CGETCLIENT',
    Type.Object({ CLIENTS: Type.Array(ClientSchema, { minItems: 1, maxItems: 1 }) }),
  ),
  async handler({ query, principal, services }) {
    if (query.stremail !== undefined && query.strclient !== undefined) {
      throw new ValidationError([{ name: 'stremail', message: 'give either strclient or stremail' }]);
    }
    let clientNo: number;
    if (query.stremail !== undefined) {
      const own = confinedClient(principal);
      if (own !== null) {
        // Confined: the address must be its own client's; nothing is looked up for any other.
        const mine = await services.clients.profiles.getClient(own);
        assertOwnClientKey(own, mine.EMAIL.toLowerCase() === query.stremail.trim().toLowerCase());
        clientNo = own;
      } else {
        clientNo = await services.clients.profiles.clientNoByEmail(query.stremail);
      }
    } else {
      clientNo = clientOf(principal, query);
    }
    return { B2CGETCLIENT: { CLIENTS: [await services.clients.profiles.getClient(clientNo)] } };
  },
});

export const B2C_PostClient = operation({
  name: 'B2C_PostClient',
  method: 'POST',
  audience: 'B2C',
  area: 'Clients',
  summary: 'Create or change a client',
  description:
    'Without CLIENT (or with 0) creates a client: EMAIL and LASTNAME are required, and an e-mail address ' +
    'that is already a client’s is 409 EMAIL_TAKEN (also when two requests create it at once: one creates, ' +
    'the others get 409; look the client up with B2C_GetClient stremail). With CLIENT changes that client: ' +
    'fields left out keep their value, null clears one. E-mail, phone (normalised to E.164) and postal code ' +
    '(per COUNTRY) are checked, and BIRTHDATE is a calendar date not before 1900; errors name the field as ' +
    'a JSON pointer (/CLIENTDATA/EMAIL). A token ' +
    'confined to one client changes only its own client and cannot create one. The member card is issued ' +
    'by the back office, not here.',
  body: ClientDataSchema,
  response: rooted(
    'B2CPOSTCLIENT',
    Type.Object({
      CLIENT: ClientNoSchema,
      CREATED: Type.Boolean({ description: 'True when this call created the client.' }),
      CLIENTS: Type.Array(ClientSchema, { minItems: 1, maxItems: 1 }),
    }),
  ),
  async handler({ body, principal, services }) {
    const data = body.CLIENTDATA;
    const asked = data.CLIENT === undefined || data.CLIENT === 0 ? undefined : data.CLIENT;
    const clientNo =
      confinedClient(principal) !== null ? clientScope(principal, asked, '/CLIENTDATA/CLIENT') : asked;
    const input = clientInputFrom(data, clientNo);
    const saved = await withRoot('/CLIENTDATA', () => services.clients.profiles.saveClient(input));
    return { B2CPOSTCLIENT: { CLIENT: saved.clientNo, CREATED: saved.created, CLIENTS: [saved.client] } };
  },
});

export const B2C_GetClient_Purchase = operation({
  name: 'B2C_GetClient_Purchase',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'Client purchases',
  description:
    'What the client bought, in shops (SOURCE SHOP) and online (WEB), oldest first, with their lines. ' +
    'Pages by stable position: the purchase number; a page is the purchases numbered from stroffset on, ' +
    'NEXTOFFSET the number of the next one (null on the last page). ' +
    `${PURCHASE_PAGE.defaultLimit} per page by default, at most ${PURCHASE_PAGE.maxLimit}; ` +
    'with strscn > 0 only purchases recorded after that SCN. Purchases are never deleted, so DELETED is ' +
    `always empty. ${SCOPE_NOTE}`,
  query: queryObject({ ...clientQuery, ...pageParams(PURCHASE_PAGE) }),
  response: rooted(
    'B2CGETCLIENTPURCHASE',
    FeedSchema('PURCHASES', PurchaseSchema, Type.Integer(), {
      head: { CLIENT: ClientNoSchema },
      deleted: { maxItems: 0 },
    }),
  ),
  async handler({ query, principal, services }) {
    const clientNo = clientOf(principal, query);
    const page = await services.clients.purchases.purchases(clientNo, toPage(query, PURCHASE_PAGE));
    return feedAnswer('B2CGETCLIENTPURCHASE', 'PURCHASES', page, { CLIENT: clientNo });
  },
});

export const B2C_GetClient_OnAccountDetail = operation({
  name: 'B2C_GetClient_OnAccountDetail',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'Detail of client on-account amounts',
  description:
    'Every on-account entry of the client (open and settled) by document date, or only the one with ' +
    `strdocumentno (404 DOCUMENT_NOT_FOUND when the client has none). Pages by stroffset/strlimit (default ` +
    `${ON_ACCOUNT_PAGE.defaultLimit}, at most ${ON_ACCOUNT_PAGE.maxLimit}). ${SCOPE_NOTE}`,
  query: queryObject({
    ...clientQuery,
    strdocumentno: Type.Optional(text('Document number: only this entry.', 40)),
    stroffset: pageParams(ON_ACCOUNT_PAGE).stroffset,
    strlimit: pageParams(ON_ACCOUNT_PAGE).strlimit,
  }),
  response: rooted(
    'B2CGETCLIENTONACCOUNTDETAIL',
    Type.Object({ CLIENT: ClientNoSchema, NEXTOFFSET: NextOffsetSchema, ITEMS: Type.Array(OnAccountSchema) }),
  ),
  async handler({ query, principal, services }) {
    const clientNo = clientOf(principal, query);
    const detail = await services.clients.purchases.onAccountDetail(
      clientNo,
      offsetLimit(query, ON_ACCOUNT_PAGE),
      query.strdocumentno,
    );
    return {
      B2CGETCLIENTONACCOUNTDETAIL: { CLIENT: clientNo, NEXTOFFSET: detail.nextOffset, ITEMS: detail.items },
    };
  },
});

export const B2C_GetClient_OpenOnAccount = operation({
  name: 'B2C_GetClient_OpenOnAccount',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'Open on-account amounts of a client',
  description: `The client’s open on-account items and the open total per currency. ${SCOPE_NOTE}`,
  query: queryObject(clientQuery),
  response: rooted(
    'B2CGETCLIENTOPENONACCOUNT',
    Type.Object({
      CLIENT: ClientNoSchema,
      TOTALS: Type.Array(OpenTotalSchema),
      ITEMS: Type.Array(OnAccountSchema),
    }),
  ),
  async handler({ query, principal, services }) {
    const open = await services.clients.purchases.openOnAccount(clientOf(principal, query));
    return { B2CGETCLIENTOPENONACCOUNT: { CLIENT: open.clientNo, TOTALS: open.totals, ITEMS: open.items } };
  },
});

export const B2C_UpdateMarkedForDeletion = operation({
  name: 'B2C_UpdateMarkedForDeletion',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'Update marked-for-deletion flag',
  description:
    'strflag=1 records the client’s request to be deleted (GDPR): 30 days later its personal data is ' +
    'anonymised (purchases and on-account entries are kept, without the person). strflag=0 takes the ' +
    `request back within those days. Marking again keeps the first instant. ${SCOPE_NOTE}`,
  query: queryObject({
    ...clientQuery,
    strflag: Type.Union([Type.Literal('0'), Type.Literal('1')], { description: '1: mark, 0: unmark.' }),
  }),
  response: rooted(
    'B2CUPDATEMARKEDFORDELETION',
    Type.Object({
      CLIENT: ClientNoSchema,
      MARKEDFORDELETION: Type.Boolean(),
      MARKEDFORDELETIONAT: Type.Union([Type.String(), Type.Null()]),
      DELETIONDUE: Type.Union([Type.String(), Type.Null()], {
        description: 'When the personal data will be anonymised.',
      }),
      SCN: ScnSchema,
    }),
  ),
  async handler({ query, principal, services }) {
    const r = await services.clients.profiles.setMarkedForDeletion(
      clientOf(principal, query),
      query.strflag === '1',
    );
    const instant = (iso: string | null) => (iso === null ? null : `${iso.slice(0, 19)}Z`);
    return {
      B2CUPDATEMARKEDFORDELETION: {
        CLIENT: r.clientNo,
        MARKEDFORDELETION: r.marked,
        MARKEDFORDELETIONAT: instant(r.markedAt),
        DELETIONDUE: instant(r.due),
        SCN: r.scn,
      },
    };
  },
});

export const B2C_GetClientMemberCardInfo = operation({
  name: 'B2C_GetClientMemberCardInfo',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'Client member card information',
  description: `The client’s member card (404 MEMBER_CARD_NOT_FOUND without one). ${SCOPE_NOTE}`,
  query: queryObject(clientQuery),
  response: rooted(
    'B2CGETCLIENTMEMBERCARDINFO',
    Type.Object({
      CLIENT: ClientNoSchema,
      ...MemberCardSchema.properties,
      NAME: Type.String({ description: 'Name on the card.' }),
      VALID: Type.Boolean({ description: 'Valid today.' }),
      HASPHOTO: Type.Boolean({ description: 'A card photo is available (B2C_GetMemberCardPhotoBase64).' }),
    }),
  ),
  async handler({ query, principal, services }) {
    return {
      B2CGETCLIENTMEMBERCARDINFO: await services.clients.profiles.memberCard(clientOf(principal, query)),
    };
  },
});

function photoOperation(name: string, kind: 'PROFILE' | 'CARD', summary: string, description: string) {
  const root = name.replaceAll('_', '').toUpperCase();
  return operation({
    name,
    method: 'GET',
    audience: 'B2C',
    area: 'Clients',
    summary,
    description: `${description} ${SCOPE_NOTE}`,
    query: queryObject(clientQuery),
    response: rooted(root, PhotoSchema),
    async handler({ query, principal, services }) {
      const photo = await services.clients.profiles.photo(clientOf(principal, query), kind);
      return {
        [root]: {
          CLIENT: photo.clientNo,
          CONTENTTYPE: photo.contentType,
          WIDTH: photo.width,
          HEIGHT: photo.height,
          SHA256: photo.sha256,
          PHOTO: photo.data.toString('base64'),
        },
      };
    },
  });
}

export const B2C_GetProfilePhotoBase64 = photoOperation(
  'B2C_GetProfilePhotoBase64',
  'PROFILE',
  'Profile photo, base64',
  'The client’s profile photo as stored: re-encoded, without metadata, at most 1024 px a side ' +
    '(404 PHOTO_NOT_FOUND without one).',
);

export const B2C_GetMemberCardPhotoBase64 = photoOperation(
  'B2C_GetMemberCardPhotoBase64',
  'CARD',
  'Member card photo, base64',
  'The photo for the member card: made from the profile photo when that is posted, as a JPEG of ' +
    '420 x 540 (7:9, passport-like) cropped to the region of interest (404 PHOTO_NOT_FOUND without one).',
);

export const B2C_PostProfilePhotoBase64 = operation({
  name: 'B2C_PostProfilePhotoBase64',
  method: 'POST',
  audience: 'B2C',
  // The base64 of the largest photo plus the JSON around it.
  bodyLimit: MAX_PHOTO_BASE64 + 64 * 1024,
  area: 'Clients',
  summary: 'Post profile photo, base64',
  description:
    'Stores the client’s profile photo (and makes its member-card version). Only real JPEG, PNG or WebP ' +
    'images of at most 2 MiB are taken: the type is read from the bytes, and the image is re-encoded so ' +
    'that no metadata (EXIF location, camera data) is kept. An empty PHOTO removes the photos. The ' +
    `request body limit of the server applies as well. ${SCOPE_NOTE}`,
  body: ProfilePhotoDataSchema,
  response: rooted(
    'B2CPOSTPROFILEPHOTOBASE64',
    Type.Object({
      CLIENT: ClientNoSchema,
      CONTENTTYPE: Type.Union([Type.String(), Type.Null()], { description: 'Null when removed.' }),
      WIDTH: Type.Union([Type.Integer(), Type.Null()]),
      HEIGHT: Type.Union([Type.Integer(), Type.Null()]),
      SHA256: Type.Union([Type.String(), Type.Null()]),
      SCN: ScnSchema,
    }),
  ),
  async handler({ body, principal, services }) {
    const data = body.PROFILEPHOTODATA;
    const clientNo = clientScope(principal, data.CLIENT, '/PROFILEPHOTODATA/CLIENT');
    const r = await withRoot('/PROFILEPHOTODATA', async () => {
      const bytes = data.PHOTO === '' ? null : decodeBase64Photo(data.PHOTO);
      return services.clients.profiles.putProfilePhoto(clientNo, bytes, { declaredType: data.CONTENTTYPE });
    });
    return {
      B2CPOSTPROFILEPHOTOBASE64: {
        CLIENT: r.clientNo,
        CONTENTTYPE: r.profile?.contentType ?? null,
        WIDTH: r.profile?.width ?? null,
        HEIGHT: r.profile?.height ?? null,
        SHA256: r.profile?.sha256 ?? null,
        SCN: r.scn,
      },
    };
  },
});

export const B2C_GetUserMessages = operation({
  name: 'B2C_GetUserMessages',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'User messages',
  description:
    'The client’s messages, newest first, with READ flags and the number still unread. Listing marks ' +
    'nothing read; reading one message (strmessage) answers only that message and marks it read. ' +
    `strunread=1 lists only unread messages. Pages by stable position: stroffset 1 starts at the newest, ` +
    'NEXTOFFSET is the position of the next (older) message, to be passed back as given, so reading ' +
    `messages during a pass shifts nothing (default ${MESSAGE_PAGE.defaultLimit}, at most ` +
    `${MESSAGE_PAGE.maxLimit}). ${SCOPE_NOTE}`,
  query: queryObject({
    ...clientQuery,
    strmessage: Type.Optional(
      positiveDigits('Message number: read this message (marks it read).', undefined, MAX_SAFE_INT),
    ),
    strunread: Type.Optional(
      Type.Union([Type.Literal('0'), Type.Literal('1')], { description: '1: unread only.' }),
    ),
    stroffset: pageParams(MESSAGE_PAGE).stroffset,
    strlimit: pageParams(MESSAGE_PAGE).strlimit,
  }),
  response: rooted(
    'B2CGETUSERMESSAGES',
    Type.Object({
      CLIENT: ClientNoSchema,
      UNREAD: Type.Integer({ minimum: 0, description: 'Unread messages after this call.' }),
      NEXTOFFSET: NextOffsetSchema,
      MESSAGES: Type.Array(MessageSchema),
    }),
  ),
  async handler({ query, principal, services }) {
    const clientNo = clientOf(principal, query);
    const page = offsetLimit(query, MESSAGE_PAGE);
    if (query.strmessage !== undefined) {
      const read = await services.clients.messages.readMessage(
        clientNo,
        toPositiveInt('strmessage', query.strmessage),
      );
      return {
        B2CGETUSERMESSAGES: {
          CLIENT: clientNo,
          UNREAD: read.unread,
          NEXTOFFSET: null,
          MESSAGES: [read.message],
        },
      };
    }
    const list = await services.clients.messages.messages(clientNo, {
      unreadOnly: query.strunread === '1',
      ...page,
    });
    return {
      B2CGETUSERMESSAGES: {
        CLIENT: clientNo,
        UNREAD: list.unread,
        NEXTOFFSET: list.nextOffset,
        MESSAGES: list.items,
      },
    };
  },
});

export const B2C_GetClientActions = operation({
  name: 'B2C_GetClientActions',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'Client actions',
  description:
    'Promotions offered to the client today (to every client, to this one, or to its member-card level), ' +
    `each claimable once, with whether and when it was claimed. ${SCOPE_NOTE}`,
  query: queryObject(clientQuery),
  response: rooted(
    'B2CGETCLIENTACTIONS',
    Type.Object({ CLIENT: ClientNoSchema, ACTIONS: Type.Array(ActionSchema) }),
  ),
  async handler({ query, principal, services }) {
    const clientNo = clientOf(principal, query);
    return {
      B2CGETCLIENTACTIONS: { CLIENT: clientNo, ACTIONS: await services.clients.messages.actions(clientNo) },
    };
  },
});

export const B2C_ClaimClientAction = operation({
  name: 'B2C_ClaimClientAction',
  method: 'GET',
  audience: 'B2C',
  area: 'Clients',
  summary: 'Claim a client action',
  description:
    'Claims an action for the client. Each action is claimed once per client: a second claim, also a ' +
    'concurrent one, is 409 ACTION_ALREADY_CLAIMED. An action not offered to the client is 404 ' +
    `ACTION_NOT_FOUND; one outside its dates 409 ACTION_NOT_VALID. ${SCOPE_NOTE}`,
  query: queryObject({ ...clientQuery, straction: text('Action code.', 40) }),
  response: rooted(
    'B2CCLAIMCLIENTACTION',
    Type.Object({ CLIENT: ClientNoSchema, ACTIONS: Type.Array(ActionSchema, { minItems: 1, maxItems: 1 }) }),
  ),
  async handler({ query, principal, services }) {
    const clientNo = clientOf(principal, query);
    const action = await services.clients.messages.claimAction(clientNo, query.straction);
    return { B2CCLAIMCLIENTACTION: { CLIENT: clientNo, ACTIONS: [action] } };
  },
});
