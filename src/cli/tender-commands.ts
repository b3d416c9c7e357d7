import type { Command } from 'commander';

/**
 * Registers `tv2 tenders expire` (docs/tenders.md, "Expiry"): one EXPIRE entry for every tender past
 * its last valid day that still holds value, each in its own transaction, once per tender even when
 * runs overlap (as POST /TV2/Admin/tenders/expire). The work is loaded only when it runs.
 */
export function registerTenderCommands(program: Command): void {
  const tenders = program
    .command('tenders')
    .description('Tenders (vouchers, cheques, bonus cards): see docs/tenders.md.');
  tenders
    .command('expire')
    .description(
      'Write off what every tender past its last valid day still holds: one EXPIRE entry each, taking its balance to 0; prints what was expired per currency.',
    )
    .action(async () => {
      const [{ loadConfig }, { migrate, openDatabase }, { MIGRATIONS }, { createServices }, { fromMinor }] =
        await Promise.all([
          import('../config.ts'),
          import('../kernel/db/database.ts'),
          import('../areas.ts'),
          import('../services.ts'),
          import('../kernel/money.ts'),
        ]);
      const config = loadConfig();
      const database = openDatabase(config.databaseUrl);
      try {
        await migrate(database, MIGRATIONS);
        const report = await createServices(config, database).tenders.expiry.expireAll();
        console.log(`tenders expired: ${report.expired} (valid until before ${report.day})`);
        for (const a of report.amounts) {
          console.log(`  ${a.currency}: ${a.tenders} tenders, ${fromMinor(a.amount).toFixed(2)} written off`);
        }
      } finally {
        await database.close();
      }
    });
}
