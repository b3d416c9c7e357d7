/**
 * The baseline of bench/all.ts: a bare Fastify process (no tv2 module loaded) serving what tv2
 * served, so each figure is a same-run ratio to the cost of HTTP, JSON bytes and the query itself.
 *
 *   node bench/bare-server.ts <config.json>     (listens on PORT, or a free port; prints {"port":n})
 *
 * The config (all parts optional):
 *   bodies:  { name: [json text, ...] }  GET or POST /static/<name> answers them in turn (the answers
 *            of tv2 captured for a few articles); a POST body is parsed as JSON first, as tv2 does.
 *   pages:   a directory of page-<n>.json files, streamed by GET /page/<n> (a full list pass).
 *   databaseUrl + queries: { name: sql }   GET /query/<name>?scn=<n> runs the SELECT with the one
 *            parameter (? on SQLite, $1 on PostgreSQL) on its own connection (pool of 10 on
 *            PostgreSQL, as tv2's default) and answers the rows as JSON.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';

interface BareConfig {
  bodies?: Record<string, string[]>;
  pages?: string;
  databaseUrl?: string;
  queries?: Record<string, string>;
}

const config: BareConfig = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'));
const JSON_TYPE = 'application/json; charset=utf-8';
const app = Fastify({ logger: false });

const bodies = config.bodies ?? {};
const turn: Record<string, number> = {};
const nextBody = (name: string): string | undefined => {
  const list = bodies[name];
  if (!list || list.length === 0) return undefined;
  const i = turn[name] ?? 0;
  turn[name] = (i + 1) % list.length;
  return list[i];
};
const staticRoute = async (
  request: { params: unknown },
  reply: { code(n: number): unknown; type(t: string): { send(b: string): unknown } },
) => {
  const body = nextBody((request.params as { name: string }).name);
  if (body === undefined) return reply.code(404);
  return reply.type(JSON_TYPE).send(body);
};
app.get('/static/:name', staticRoute);
app.post('/static/:name', staticRoute);

if (config.pages) {
  const dir = config.pages;
  app.get('/page/:n', async (request, reply) => {
    const n = Number((request.params as { n: string }).n);
    return reply.type(JSON_TYPE).send(createReadStream(join(dir, `page-${n}.json`)));
  });
}

if (config.databaseUrl && config.queries) {
  const queries = config.queries;
  let run: (name: string, scn: number) => Promise<unknown[]>;
  if (/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    const { default: pg } = await import('pg');
    // int8 as numbers, as tv2 reads them
    pg.types.setTypeParser(20, (v: string) => Number(v));
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    run = async (name, scn) => (await pool.query(queries[name] ?? '', [scn])).rows;
  } else {
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(config.databaseUrl.replace(/^sqlite:/, ''), { readonly: true });
    const statements = Object.fromEntries(Object.entries(queries).map(([n, q]) => [n, db.prepare(q)]));
    run = async (name, scn) => statements[name]?.all(scn) ?? [];
  }
  app.get('/query/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const scn = Number((request.query as { scn?: string }).scn ?? 0);
    const rows = await run(name, scn);
    return reply.type(JSON_TYPE).send(JSON.stringify({ COUNT: rows.length, ROWS: rows }));
  });
}

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
