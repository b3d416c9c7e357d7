import { describe, expect, it } from 'vitest';
import { withMigratedDatabase } from '../../../test/helpers/test-app.ts';
import type { Database } from './database.ts';
import { CoalescedScnReader } from './scn-reader.ts';
import { inWriteTransaction } from './unit-of-work.ts';

let database: Database;
withMigratedDatabase((d) => {
  database = d;
});

describe('CoalescedScnReader', () => {
  it('serves every caller of one turn from one read', async () => {
    const reader = new CoalescedScnReader(database.db);
    const first = reader.current();
    expect(reader.current()).toBe(first);
    expect(typeof (await first)).toBe('number');
    expect(reader.current()).not.toBe(first);
  });

  it('never answers a caller with a value read before it asked', async () => {
    const reader = new CoalescedScnReader(database.db);
    const before = await reader.current();
    await inWriteTransaction(database, (uow) => uow.scn());
    const afterOne = await reader.current();
    expect(afterOne).toBeGreaterThan(before);
    // a caller that asks after a commit gets a new value even while an earlier read is in flight
    const inFlight = reader.current();
    await inFlight;
    await inWriteTransaction(database, (uow) => uow.scn());
    expect(await reader.current()).toBeGreaterThan(afterOne);
  });

  it('moves when a write commits while an older write is still open (PostgreSQL: the horizon stands still)', async () => {
    const reader = new CoalescedScnReader(database.db);
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let started: () => void = () => {};
    const open = new Promise<void>((r) => {
      started = r;
    });
    // SQLite serialises writers: the older write cannot stay open while another commits there
    if (database.engine !== 'postgres') started();
    const older =
      database.engine === 'postgres'
        ? inWriteTransaction(database, async (uow) => {
            await uow.stamp();
            started();
            await held;
          })
        : Promise.resolve();
    await open;
    const before = await reader.current();
    await inWriteTransaction(database, (uow) => uow.stamp());
    expect(await reader.current()).toBeGreaterThan(before);
    release();
    await older;
  });
});
