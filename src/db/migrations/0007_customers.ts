import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(_db: Kysely<any>, _engine: Engine): Promise<void> {}
