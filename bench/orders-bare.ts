/**
 * The baseline of bench/orders.ts: a bare Fastify process (no tv2 module loaded) whose one route
 * takes a JSON order body and commits one single-row insert transaction on the same database as
 * tv2 (a table of its own, made at start), answering the new row's id as JSON: what any order
 * placement costs at least (HTTP, parsing the body, one durable commit).
 *
 *   node bench/orders-bare.ts <databaseUrl>     (listens on PORT; prints {"port":n})
 *
 * SQLite as tv2 opens it (WAL, synchronous NORMAL, one connection); PostgreSQL with a pool of 10
 * connections, tv2's default.
 */
import Fastify from 'fastify';

const url = process.argv[2] ?? '';
const app = Fastify({ logger: false });
let insert: (weborder: string, body: string) => Promise<number>;

if (/^postgres(ql)?:\/\//.test(url)) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_bare_order (id bigserial PRIMARY KEY, weborder text NOT NULL, body text NOT NULL)',
  );
  insert = async (weborder, body) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const row = await client.query({
        name: 'bare_insert',
        text: 'INSERT INTO bench_bare_order (weborder, body) VALUES ($1, $2) RETURNING id',
        values: [weborder, body],
      });
      await client.query('COMMIT');
      return Number(row.rows[0].id);
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
} else {
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(url.replace(/^sqlite:/, ''));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  db.exec(
    'CREATE TABLE IF NOT EXISTS bench_bare_order (id INTEGER PRIMARY KEY, weborder TEXT NOT NULL, body TEXT NOT NULL)',
  );
  const statement = db.prepare('INSERT INTO bench_bare_order (weborder, body) VALUES (?, ?) RETURNING id');
  const write = db.transaction(
    (weborder: string, body: string) => (statement.get(weborder, body) as { id: number }).id,
  );
  insert = async (weborder, body) => write.immediate(weborder, body);
}

app.post('/order', async (request, reply) => {
  const body = request.body as { WEBORDERDATA?: { WEBORDER?: string } };
  const id = await insert(String(body.WEBORDERDATA?.WEBORDER ?? ''), JSON.stringify(body));
  return reply.type('application/json; charset=utf-8').send(JSON.stringify({ BAREORDER: { ORDERNO: id } }));
});
app.get('/ready', async () => ({ ok: true }));

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
