import { type Command, InvalidArgumentError, Option } from 'commander';
import type { RestoreOptions } from './backup.ts';

/**
 * Registers `backup` and `restore` on the command line. The work (backup.ts, with the database
 * drivers and every area's migrations) is loaded only when one of them runs, so `tv2 --help` and
 * the other commands start without it.
 */
export function registerBackupCommands(program: Command): void {
  program
    .command('backup <file>')
    .description(
      'Write a consistent backup of the database to <file> while the API keeps running: SQLite: a copy of the database file (online backup API); PostgreSQL: pg_dump custom format (needs pg_dump on PATH). See docs/backup.md.',
    )
    .option('--force', 'replace <file> if it exists')
    .action(async (file: string, opts: { force?: boolean }) => {
      const [{ backupDatabase }, { loadConfig }] = await Promise.all([
        import('./backup.ts'),
        import('../config.ts'),
      ]);
      await reportErrors(async () => {
        const r = await backupDatabase(loadConfig().databaseUrl, file, opts);
        console.log(
          `backed up ${r.engine} to ${r.file}: ${(r.bytes / 1_048_576).toFixed(1)} MiB, SCN ${r.scn}, in ${r.seconds} s`,
        );
      });
    });
  program
    .command('restore <file>')
    .description(
      'Restore a backup made by `tv2 backup` into the database of DATABASE_URL (a new one, or with --force replacing it; stop the servers first), check it and apply newer migrations. See docs/backup.md.',
    )
    .option('--force', 'replace an existing, non-empty database')
    .addOption(
      new Option(
        '--advance-scn <n>',
        'raise the SCN counter by n after the restore (recovery after a loss: see docs/backup.md)',
      ).argParser(positiveNumber),
    )
    .action(async (file: string, opts: RestoreOptions) => {
      const [{ restoreDatabase }, { loadConfig }] = await Promise.all([
        import('./backup.ts'),
        import('../config.ts'),
      ]);
      await reportErrors(async () => {
        const r = await restoreDatabase(loadConfig().databaseUrl, file, opts);
        console.log(
          `restored ${r.engine} from ${file}: SCN ${r.scn}${r.migrated.length ? `, migrated ${r.migrated.join(', ')}` : ''}, in ${r.seconds} s`,
        );
      });
    });
}

function positiveNumber(value: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(value)) throw new InvalidArgumentError('must be a whole number above 0');
  return Number(value);
}

async function reportErrors(work: () => Promise<void>): Promise<void> {
  const { BackupError } = await import('./backup.ts');
  try {
    await work();
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`tv2: ${error.message}`);
    process.exitCode = 1;
  }
}
