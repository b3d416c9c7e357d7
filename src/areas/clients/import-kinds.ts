import { checkRecord, fromCsv, type ImportKind, inOneTransaction } from '../../kernel/import/import-kind.ts';
import { AdminClientBody, adminClientInput, clientRecordFromCsv } from './client-input.ts';
import { ClientService } from './client-service.ts';

const clients: ImportKind<ReturnType<typeof adminClientInput>> = {
  name: 'clients',
  description:
    'retail clients: CLIENT, EMAIL, FIRSTNAME, MIDDLENAME, LASTNAME, PHONE, ADDRESS, HOUSENUMBER, POSTALCODE, CITY, COUNTRY, BIRTHDATE, LANGUAGE, HOMESHOP, CONSENT_NEWSLETTER|SMS|PROFILING (1/0), CARDNO, CARDLEVEL, CARDVALIDFROM, CARDVALIDTO',
  parse: (record, format) =>
    adminClientInput(
      checkRecord<AdminClientBody>(AdminClientBody, fromCsv(record, format, clientRecordFromCsv)),
    ),
  save: (services, inputs) =>
    inOneTransaction(services, async (database) => {
      // each client is a create or a change checked against its e-mail address, all in one transaction
      const clientService = new ClientService(database);
      let changed = 0;
      for (const input of inputs) {
        const saved = await clientService.saveClient(input, { createWithNumber: true });
        if (saved.changed) changed++;
      }
      return { written: changed, unchanged: inputs.length - changed };
    }),
};

/** The `tv2 import` kinds of the clients area. */
export const CLIENTS_IMPORT_KINDS = [clients];
