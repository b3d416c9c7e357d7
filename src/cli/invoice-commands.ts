import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Services } from '../services.ts';

/**
 * Registers `tv2 invoice` (the batch run: one invoice per customer with delivered pieces not
 * invoiced, each in its own transaction, then the credit notes owed for returns and cancelled
 * deliveries) and `tv2 invoice export <number>` (the Peppol UBL or the
 * PDF of an issued document) on the command line (docs/billing-issuing.md). The work is loaded
 * only when one of them runs.
 */
export function registerInvoiceCommands(program: Command): void {
  const invoice = program
    .command('invoice')
    .description(
      'Issue one invoice per customer for everything delivered and neither returned nor invoiced (each in its own transaction), then the credit notes owed for returns and deliveries cancelled after invoicing; prints the counts. See docs/billing-issuing.md.',
    )
    .action(async () => {
      await withServices(async (services) => {
        const started = performance.now();
        const report = await services.billing.issuing.issueAll((r) => {
          if (process.stderr.isTTY) process.stderr.write(`\r${r.customers} customers, ${r.issued} invoices`);
        });
        if (process.stderr.isTTY) process.stderr.write('\n');
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(
          `invoices: ${report.issued} issued, ${report.nothing} customers with nothing to invoice, ${report.failed} failed, of ${report.customers} customers with deliveries; credit notes: ${report.creditNotes} issued for returns and cancelled deliveries, of ${report.creditCustomers} customers with invoices; in ${seconds} s`,
        );
        for (const failure of report.failures) console.log(`  ${failure}`);
        process.exitCode = report.failed > 0 ? 2 : 0;
      });
    });
  invoice
    .command('export <number>')
    .description(
      'Write an issued invoice or credit note as Peppol BIS Billing 3.0 UBL (its PDF embedded), or --pdf as PDF.',
    )
    .option('--out <file>', 'write to <file> instead of standard output')
    .option('--pdf', 'the PDF instead of the UBL')
    .action(async (number: string, opts: { out?: string; pdf?: boolean }) => {
      await withServices(async (services) => {
        const { documents } = services.billing;
        const bytes = opts.pdf
          ? await documents.pdf(number)
          : Buffer.from(await documents.ubl(number), 'utf8');
        if (opts.out) writeFileSync(opts.out, bytes);
        else process.stdout.write(bytes);
      });
    });
}

async function withServices(work: (services: Services) => Promise<void>): Promise<void> {
  const [{ loadConfig }, { migrate, openDatabase }, { MIGRATIONS }, { createServices }, { DomainError }] =
    await Promise.all([
      import('../config.ts'),
      import('../kernel/db/database.ts'),
      import('../areas.ts'),
      import('../services.ts'),
      import('../kernel/errors.ts'),
    ]);
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    await migrate(database, MIGRATIONS);
    await work(createServices(config, database));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(`tv2: ${error.code}: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}
