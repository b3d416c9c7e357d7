import { Type } from 'typebox';
import { adminRoute, pathNumber, samePathKey } from '../../kernel/admin-route.ts';
import { MAX_INT32 } from '../../kernel/int-limits.ts';
import {
  ActionBody,
  AdminClientBody,
  actionInput,
  adminClientInput,
  OnAccountBody,
  onAccountInput,
} from './client-input.ts';

const ClientNo = pathNumber(MAX_INT32, 'The client number (CLIENT).');
const ClientParams = Type.Object({ client: ClientNo });
/** An on-account item's document number: 1 to 40 letters, digits or . _ / - (a letter or digit first). */
const DOCUMENT_NO = '^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$';
/** A client action's code: 1 to 40 capitals, digits or . _ - (a capital or digit first). */
const ACTION_CODE = '^[A-Z0-9][A-Z0-9._-]{0,39}$';

export const CLIENTS_ADMIN_ROUTES = [
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/clients/:client',
    summary: 'Create or change a retail client, with its member card',
    description:
      'Creates the client with this number when it does not exist. Absent fields keep their value; null clears one. ' +
      "The body's CLIENT must equal the path's key (a 400 naming the field otherwise).",
    params: ClientParams,
    body: AdminClientBody,
    response: Type.Object({ CLIENT: Type.Integer(), CREATED: Type.Boolean(), CHANGED: Type.Boolean() }),
    async handler({ params, body, services }) {
      samePathKey(params.client, body.CLIENT, 'CLIENT', Number);
      const saved = await services.clients.profiles.saveClient(adminClientInput(body), {
        createWithNumber: true,
      });
      return { CLIENT: saved.clientNo, CREATED: saved.created, CHANGED: saved.changed };
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/clients/:client/onaccount/:documentno',
    summary: 'Book or change an on-account item of a client (invoice, credit note, payment)',
    description:
      'The item is named by the client and its document number in the path. AMOUNT and OPEN are numbers or decimal strings with at most two decimals.',
    params: Type.Object({
      client: ClientNo,
      documentno: Type.String({
        pattern: DOCUMENT_NO,
        description: 'The document number of the on-account item.',
      }),
    }),
    body: OnAccountBody,
    response: Type.Object({ CHANGED: Type.Boolean() }),
    async handler({ params, body, services }) {
      const input = onAccountInput(Number(params.client), params.documentno, body);
      const { changed } = await services.clients.purchases.saveOnAccountEntry(input);
      return { CHANGED: changed };
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/clients/:client/messages',
    summary: 'Send a message to a client (shown by B2C_GetUserMessages)',
    description: 'The client is named by its number in the path.',
    params: ClientParams,
    body: Type.Object(
      {
        SUBJECT: Type.String({ minLength: 1, maxLength: 200 }),
        BODY: Type.String({ minLength: 1, maxLength: 10_000 }),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ MESSAGE: Type.Integer() }),
    async handler({ params, body, services }) {
      const { messageNo } = await services.clients.messages.sendMessage(Number(params.client), {
        subject: body.SUBJECT,
        body: body.BODY,
      });
      return { MESSAGE: messageNo };
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/clientactions/:action',
    summary: 'Create or change a client action (a promotion each client can claim once)',
    description:
      'The action is named by its code in the path. VALIDTO may not be before VALIDFROM; a CLIENT given must exist.',
    params: Type.Object({
      action: Type.String({ pattern: ACTION_CODE, description: 'The code of the action.' }),
    }),
    body: ActionBody,
    async handler({ params, body, services }) {
      await services.clients.messages.saveAction(actionInput(params.action, body));
    },
  }),
];
