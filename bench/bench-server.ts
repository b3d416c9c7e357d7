/**
 * A server process for the benchmark, so load generator and server each have a core.
 *   bench-server.ts tv2 <databaseUrl>     -> the real API over that database
 *   bench-server.ts bare <jsonFile>       -> a bare Fastify route answering a static article JSON
 * Prints one JSON line { port } on standard output when listening.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { startApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const [mode, arg] = process.argv.slice(2);

if (mode === 'bare') {
  const body = readFileSync(arg ?? '', 'utf8');
  const app = Fastify({ logger: false });
  app.get('/article', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
} else if (mode === 'tv2') {
  const config = loadConfig({}, { databaseUrl: arg ?? '', demo: false, logLevel: 'silent' });
  const running = await startApp(config, { logger: false });
  await running.app.listen({ host: '127.0.0.1', port: 0 });
  const address = running.app.server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
} else {
  console.error('usage: bench-server.ts tv2 <databaseUrl> | bare <jsonFile>');
  process.exit(2);
}

// Exit cleanly on SIGTERM so `--cpu-prof` can write its profile.
process.once('SIGTERM', () => process.exit(0));
