import { Command, InvalidArgumentError, Option } from 'commander';
import { DomainError } from '../kernel/errors.ts';
import type { Services } from '../services.ts';
import { VERSION } from '../version.ts';
import { registerBackupCommands } from './backup-commands.ts';
import { registerInvoiceCommands } from './invoice-commands.ts';
import { registerTenderCommands } from './tender-commands.ts';

/*
 * Only commander and the arguments' parsers load before the arguments are parsed: each command
 * imports what it needs when it runs (the server, the areas, the database drivers), so `tv2 --help`
 * and the small commands start without loading the whole application.
 */

function wholeNumber(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

async function withServices<T>(work: (services: Services) => Promise<T>): Promise<T> {
  const [{ loadConfig }, { migrate, openDatabase }, { MIGRATIONS }, { createServices }] = await Promise.all([
    import('../config.ts'),
    import('../kernel/db/database.ts'),
    import('../areas.ts'),
    import('../services.ts'),
  ]);
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    await migrate(database, MIGRATIONS);
    return await work(createServices(config, database));
  } finally {
    await database.close();
  }
}

const program = new Command()
  .name('tv2')
  .description(
    'tv2: a self-hostable back end serving the TV2 trade interface.\nEnvironment: HOST, PORT, DATABASE_URL (sqlite:./data/tv2.db or postgres://...), TV2_DEMO, LOG_LEVEL.',
  )
  .version(VERSION);

program
  .command('serve')
  .description('Apply migrations and serve the API.')
  .option(
    '--demo',
    'on an empty database, load the demo data and the demo user (demo/demo); TV2_DEMO=0 turns it off',
  )
  .action(async (opts: { demo?: boolean }) => {
    const { serve } = await import('./serve.ts');
    await serve(process.env, { demo: opts.demo === true });
  });

program
  .command('migrate')
  .description('Apply pending database migrations and exit.')
  .action(async () => {
    const [{ loadConfig }, { migrate, openDatabase }, { MIGRATIONS }] = await Promise.all([
      import('../config.ts'),
      import('../kernel/db/database.ts'),
      import('../areas.ts'),
    ]);
    const config = loadConfig();
    const database = openDatabase(config.databaseUrl);
    try {
      const applied = await migrate(database, MIGRATIONS);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
    } finally {
      await database.close();
    }
  });

program
  .command('seed')
  .description('Load the generated demo catalogue (size tables, articles, images). Creates no user.')
  .addOption(new Option('--articles <n>', 'number of articles').argParser(wholeNumber).default(300))
  .addOption(new Option('--seed <n>', 'random seed (same seed, same data)').argParser(wholeNumber).default(1))
  .option('--no-images', 'skip the article images')
  .action(async (opts: { articles: number; seed: number; images: boolean }) => {
    const { seedCatalog } = await import('../areas/catalog/index.ts');
    await withServices(async (services) => {
      const started = Date.now();
      const result = await seedCatalog(services, {
        articles: opts.articles,
        seed: opts.seed,
        images: opts.images,
        onProgress: (done, total) => {
          if (process.stderr.isTTY) process.stderr.write(`\rarticles ${done}/${total}`);
        },
      });
      if (process.stderr.isTTY) process.stderr.write('\n');
      console.log(
        `seeded ${result.articles} articles, ${result.sizeTables} size tables, ${result.images} images in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    });
  });

/** Exit codes of `tv2 import`: everything imported, some records rejected, nothing could be done. */
const IMPORT_EXIT = { ok: 0, failed: 1, partial: 3 } as const;

const IMPORT_SUMMARY =
  'Import records from a .csv, .json (array) or .jsonl file; each batch is one transaction and unchanged records are skipped.';

/** `tv2 import`'s description, with its kinds: loaded (with the areas) only when `import` runs or shows its help. */
async function importDescription(): Promise<string> {
  const { IMPORT_KINDS } = await import('../areas.ts');
  const kinds = Object.values(IMPORT_KINDS)
    .map((k) => `${k.name} (${k.description})`)
    .join('; ');
  return `${IMPORT_SUMMARY}\nKinds: ${kinds}.\nExit code: 0 all imported, 3 some records rejected (listed with their line), 1 the import could not run.`;
}

program.hook('preSubcommand', async (_program, command) => {
  if (command.name() === 'import') command.description(await importDescription());
});

program
  .command('import <kind> <file>')
  .description(IMPORT_SUMMARY)
  .summary(`${IMPORT_SUMMARY} \`tv2 import --help\` lists the kinds.`)
  .addOption(new Option('--batch-size <n>', 'records per transaction').argParser(wholeNumber).default(500))
  .option('--report <file>', 'also write the report (JSON) to this file')
  .action(async (kindName: string, file: string, opts: { batchSize: number; report?: string }) => {
    const { IMPORT_KINDS } = await import('../areas.ts');
    const kind = IMPORT_KINDS[kindName];
    if (!kind) {
      console.error(`tv2: unknown kind "${kindName}"; kinds: ${Object.keys(IMPORT_KINDS).join(', ')}`);
      process.exit(IMPORT_EXIT.failed);
    }
    const [{ statSync, writeFileSync }, { default: cliProgress }, { runImport }] = await Promise.all([
      import('node:fs'),
      import('cli-progress'),
      import('../kernel/import/run-import.ts'),
    ]);
    const size = statSync(file).size;
    const bar = process.stderr.isTTY
      ? new cliProgress.SingleBar(
          {
            format: ' {bar} {percentage}% | {records} records | {eta_formatted} left',
            stream: process.stderr,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
    bar?.start(size, 0, { records: 0 });
    const report = await withServices((services) =>
      runImport(services, kind, file, {
        batchSize: opts.batchSize,
        onProgress: ({ records, bytesRead }) => bar?.update(bytesRead, { records }),
      }),
    );
    bar?.update(size);
    bar?.stop();
    console.log(
      `${report.kind}: ${report.records} records, ${report.written} written, ${report.unchanged} unchanged, ${report.rejected.length} rejected in ${report.seconds} s`,
    );
    for (const r of report.rejected.slice(0, 50))
      console.log(`  ${file}:${r.position}: ${r.reasons.join('; ')}`);
    if (report.rejected.length > 50)
      console.log(`  ... and ${report.rejected.length - 50} more (see --report)`);
    if (opts.report) writeFileSync(opts.report, `${JSON.stringify(report, null, 2)}\n`);
    process.exitCode = report.rejected.length > 0 ? IMPORT_EXIT.partial : IMPORT_EXIT.ok;
  });

registerBackupCommands(program);
registerInvoiceCommands(program);
registerTenderCommands(program);

const user = program.command('user').description('Manage API users.');

user
  .command('add <name>')
  .description('Create an API user and print its secret once.')
  .requiredOption('--roles <roles>', 'comma-separated: B2B, B2C, ADMIN')
  .addOption(
    new Option('--customer <no>', 'confine the user to one wholesale customer (role B2B only)').argParser(
      wholeNumber,
    ),
  )
  .addOption(
    new Option('--client <no>', 'confine the user to one retail client (role B2C only)').argParser(
      wholeNumber,
    ),
  )
  .action(async (name: string, opts: { roles: string; customer?: number; client?: number }) => {
    const { parseRoles } = await import('../kernel/access/principal.ts');
    const roles = parseRoles(opts.roles);
    await withServices(async (services) => {
      const created = await services.general.auth.createUser({
        name,
        roles,
        customerNo: opts.customer,
        clientNo: opts.client,
      });
      console.log(
        `user:   ${created.name}\nsecret: ${created.secret}\n(the secret is shown only now; it is stored hashed)`,
      );
    });
  });

user
  .command('list')
  .description('List API users.')
  .action(async () => {
    await withServices(async (services) => {
      for (const u of await services.general.auth.listUsers()) {
        const scope =
          u.customerNo != null
            ? ` customer=${u.customerNo}`
            : u.clientNo != null
              ? ` client=${u.clientNo}`
              : '';
        console.log(
          `${u.name}\t${u.roles.join(',')}${scope}\t${u.active ? 'active' : `revoked ${u.revokedAt}`}`,
        );
      }
    });
  });

user
  .command('revoke <name>')
  .description('Revoke an API user and all its tokens.')
  .action(async (name: string) => {
    await withServices(async (services) => {
      await services.general.auth.revokeUser(name);
      console.log(`revoked ${name}`);
    });
  });

program
  .command('anonymise-due')
  .description(
    'GDPR: erase the personal data of retail clients marked for deletion longer than the grace period ago (keeping accounting records), and revoke API users confined to them. Run daily, e.g. from cron.',
  )
  .action(async () => {
    await withServices(async (services) => {
      const clients = await services.clients.profiles.anonymiseDue(new Date());
      const users = await services.general.auth.revokeUsersOfClients(clients);
      console.log(
        `anonymised ${clients.length} client(s)${users.length ? `; revoked users ${users.join(', ')}` : ''}`,
      );
    });
  });

program
  .command('openapi')
  .description('Print the OpenAPI 3.1 document (or write it to a file).')
  .option('--out <file>', 'write to this file instead of standard output')
  .action(async (opts: { out?: string }) => {
    const [{ loadConfig }, { openDatabase }, { AREAS }, { createServices }, { buildApp }] = await Promise.all(
      [
        import('../config.ts'),
        import('../kernel/db/database.ts'),
        import('../areas.ts'),
        import('../services.ts'),
        import('../http/server.ts'),
      ],
    );
    const config = loadConfig(process.env, { databaseUrl: 'sqlite::memory:', demo: false });
    const database = openDatabase(config.databaseUrl);
    const app = await buildApp(createServices(config, database), { areas: AREAS });
    await app.ready();
    const text = `${JSON.stringify(await app.openApiDocument(), null, 2)}\n`;
    await app.close();
    await database.close();
    if (opts.out) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const { dirname } = await import('node:path');
      mkdirSync(dirname(opts.out), { recursive: true });
      writeFileSync(opts.out, text);
    } else {
      process.stdout.write(text);
    }
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const expected =
    error instanceof DomainError ||
    (error instanceof Error &&
      ('code' in error ? error.code === 'ENOENT' : /role|file type/.test(error.message)));
  if (expected) {
    console.error(`tv2: ${(error as Error).message}`);
    process.exit(1);
  }
  throw error;
}
