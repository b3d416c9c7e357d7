import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../areas.ts';
import { type Database, migrate, openDatabase } from './database.ts';
import { CoalescedScnReader } from './scn-reader.ts';
import { inWriteTransaction } from './unit-of-work.ts';

let database: Database;

beforeAll(async () => {
  database = openDatabase('sqlite::memory:');
  await migrate(database, MIGRATIONS);
});
afterAll(() => database.close());

describe('CoalescedScnReader', () => {
  it('serves every caller of one turn from one read', async () => {
    const reader = new CoalescedScnReader(database.db);
    const first = reader.current();
    expect(reader.current()).toBe(first);
    expect(await first).toBe(0);
    expect(reader.current()).not.toBe(first);
  });

  it('never answers a caller with a value read before it asked', async () => {
    const reader = new CoalescedScnReader(database.db);
    const before = await reader.current();
    await inWriteTransaction(database, (uow) => uow.scn());
    expect(await reader.current()).toBe(before + 1);
    // a caller that asks after a commit gets the new value even while an earlier read is in flight
    const inFlight = reader.current();
    await inWriteTransaction(database, (uow) => uow.scn());
    const after = reader.current();
    expect(await after).toBeGreaterThanOrEqual(before + 2);
    await inFlight;
  });
});
