import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { DB } from './schema.ts';
import { nextScn } from './scn-counter.ts';
import type { UnitOfWork } from './unit-of-work-type.ts';

/**
 * Group commit of SQLite write transactions (docs/architecture.md, "Group commit"; decision 39).
 *
 * SQLite has one writer, and tv2 one connection: write transactions run one after the other anyway.
 * Each of them pays a COMMIT, which writes every page it changed to the WAL; orders placed one after
 * the other change mostly the same pages (the counter row, the last pages of the order, line, ledger
 * and history tables and of their indexes, the stock rows of popular sizes), so each writes them
 * again. Here the writers that wait meanwhile run one after the other inside one BEGIN IMMEDIATE ...
 * COMMIT, each in a SAVEPOINT of its own, and share the COMMIT and the pages written to the WAL.
 *
 * - A writer that finds nothing running and no batch started in this turn of the event loop starts
 *   at once, alone (no savepoint), as without group commit: no wait is added when there is no queue.
 * - On SQLite a transaction ends within the turn it started in (the driver is synchronous), so
 *   writers that come while one runs are those of one turn: a writer that comes after a batch started
 *   in this turn waits for the turn's end (setImmediate, the check phase), where the writers that
 *   came meanwhile run as one batch (at most `maxMembers`; the rest make the next). A batch that runs
 *   across turns starts the next one as it ends.
 * - A member that throws is rolled back to its savepoint alone: its caller gets its error, the
 *   others go on. A failure the savepoint cannot undo (ROLLBACK TO fails: SQLite rolled the whole
 *   transaction back, as after a full disk) fails the batch with the member's error.
 * - Every member's answer (value or error) is delivered only after the COMMIT succeeded: a caller
 *   never acts on a write that is not durable yet. If the COMMIT fails, every member gets its error
 *   and nothing of the batch is kept.
 * - SCNs: each member takes the next counter value inside its savepoint (a member rolled back gives
 *   its number back, the next member takes it), so a batch's SCNs are consecutive and in member
 *   order, and all of them become visible at the one COMMIT: no reader ever sees an SCN while a
 *   lower one is still to commit.
 */

/** At most this many writers share one COMMIT: a bound on the wait of the batch's last member. */
export const GROUP_COMMIT_MAX_MEMBERS = 32;

type Work = (uow: UnitOfWork) => Promise<unknown>;

interface Member {
  readonly work: Work;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = CompiledQuery.raw('savepoint tv2_group_member');
const RELEASE = CompiledQuery.raw('release tv2_group_member');
const ROLLBACK_TO = CompiledQuery.raw('rollback to tv2_group_member');

/** The unit of work of one transaction, or of one member of a batch: its own SCN, taken once. */
export function sqliteUnitOfWork(trx: Transaction<DB>): UnitOfWork {
  let scn: Promise<number> | undefined;
  const take = () => {
    scn ??= nextScn(trx);
    return scn;
  };
  return { db: trx, scn: take, stamp: take };
}

export class GroupCommitter {
  readonly #db: Kysely<DB>;
  readonly #maxMembers: number;
  readonly #committed: () => void;
  readonly #queue: Member[] = [];
  #running = false;
  /** A batch started in this turn of the event loop: writers coming now wait for the turn's end. */
  #turnTaken = false;

  /** `committed` is called once per batch that committed. */
  constructor(db: Kysely<DB>, committed: () => void, maxMembers = GROUP_COMMIT_MAX_MEMBERS) {
    this.#db = db;
    this.#committed = committed;
    this.#maxMembers = Math.max(1, maxMembers);
  }

  run<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#running && !this.#turnTaken) this.#start();
    });
  }

  #start(): void {
    const members = this.#queue.splice(0, this.#maxMembers);
    this.#running = true;
    if (!this.#turnTaken) {
      this.#turnTaken = true;
      setImmediate(() => this.#endTurn());
    }
    void this.#commit(members).finally(() => {
      this.#running = false;
      if (this.#queue.length > 0 && !this.#turnTaken) this.#start();
    });
  }

  #endTurn(): void {
    this.#turnTaken = false;
    if (this.#queue.length > 0 && !this.#running) this.#start();
  }

  async #commit(members: Member[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.#db
        .transaction()
        .execute((trx) =>
          members.length === 1 ? alone(trx, members[0] as Member) : inSavepoints(trx, members),
        );
    } catch (error) {
      for (const member of members) member.reject(error);
      return;
    }
    for (const [i, outcome] of outcomes.entries()) {
      const member = members[i] as Member;
      if (outcome.ok) member.resolve(outcome.value);
      else member.reject(outcome.error);
    }
    try {
      this.#committed();
    } catch {
      // what follows a commit (the statistics check) is no member's concern, and must not stop the queue
    }
  }
}

/** A lone writer: the transaction is its own, a failure rolls it all back (as without batching). */
async function alone(trx: Transaction<DB>, member: Member): Promise<Outcome[]> {
  return [{ ok: true, value: await member.work(sqliteUnitOfWork(trx)) }];
}

async function inSavepoints(trx: Transaction<DB>, members: Member[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const member of members) {
    await trx.executeQuery(SAVEPOINT);
    let value: unknown;
    try {
      value = await member.work(sqliteUnitOfWork(trx));
    } catch (error) {
      try {
        await trx.executeQuery(ROLLBACK_TO);
        await trx.executeQuery(RELEASE);
      } catch {
        throw error; // the transaction is gone with the member's writes: the batch fails with its cause
      }
      outcomes.push({ ok: false, error });
      continue;
    }
    await trx.executeQuery(RELEASE);
    outcomes.push({ ok: true, value });
  }
  return outcomes;
}
