/**
 * A stand-in for an API process killed mid-request (`kill -9`): it claims an Idempotency-Key
 * exactly as the server's request hook does before running the operation, prints `claimed`, and
 * then hangs as a request stuck in its handler would, until the test kills it.
 * Arguments: database URL, user id, key, operation name, request body (JSON).
 */

import { IdempotencyService } from '../../src/areas/general/idempotency-service.ts';
import { openDatabase } from '../../src/kernel/db/database.ts';

const [url, userId, key, operation, body] = process.argv.slice(2);
if (!url || !userId || !key || !operation || !body) throw new Error('usage: url userId key operation body');
const database = openDatabase(url, { poolSize: 1 });
const idempotency = new IdempotencyService(database);
const claim = await idempotency.claim(
  Number(userId),
  key,
  IdempotencyService.hash(operation, JSON.parse(body)),
);
process.stdout.write(`${claim.kind === 'run' ? 'claimed' : `not claimed: ${claim.kind}`}\n`);
setInterval(() => {}, 60_000); // the request "runs" forever
