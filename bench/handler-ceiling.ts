/**
 * The ceiling of a read's ratio (issue 10; docs/benchmarks.md, "Eighth round"): bare Fastify whose
 * one route spins for a given number of microseconds of CPU before it answers a small JSON body,
 * loaded as bench/all.ts loads tv2 (32 connections, the load generator in this process, the server
 * in its own), against the same route spinning for none. It shows how many microseconds of work a
 * handler may do and keep a given ratio: what the goals of bench:all's read rows allow, on this
 * machine, before any tv2 code runs.
 *
 *   node bench/handler-ceiling.ts [--spins 0,15,30,45,60,100,0] [--seconds 6]
 *
 * The ratios are to the best run without a spin (list 0 more than once: the load generator itself
 * moves from run to run when the server is not the bottleneck).
 *
 * Besides the spin, a request costs the server more as the spin grows: once the server, not the
 * load generator, is the bottleneck, the generator sleeps between answers and each answer's write
 * to the loopback socket wakes it, in the server's system call.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { load, startProcess, stopProcess } from './measure.ts';

const { values } = parseArgs({
  options: {
    spins: { type: 'string', default: '0,15,30,45,60,100,0' },
    seconds: { type: 'string', default: '6' },
    /** Internal: run as the server, spinning this many microseconds a request. */
    serve: { type: 'string' },
  },
});

if (values.serve !== undefined) {
  const { default: Fastify } = await import('fastify');
  const spin = BigInt(Math.round(Number(values.serve) * 1000));
  // the size of a B2B_GetArticlePrice answer
  const body = JSON.stringify({
    B2BGETARTICLEPRICE: {
      ARTICLE: 'M10002-410',
      SIZEX: 'XXL',
      CURRENCY: 'EUR',
      PRICE: 49.95,
      NETPRICE: 44.96,
      DISCOUNTPERC: 10,
      RECOMMENDEDPRICE: 59.95,
      RULE: 'LIST_PRICE',
    },
  });
  const app = Fastify({ logger: false });
  app.get('/ready', async () => ({ ok: true }));
  app.get('/answer', async (_request, reply) => {
    const until = process.hrtime.bigint() + spin;
    while (process.hrtime.bigint() < until) {
      // the handler's work
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });
  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
} else {
  const seconds = Number(values.seconds);
  /** CPU seconds of a process so far (user and system), from /proc. */
  const cpuOf = (pid: number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const runs: Array<{ spin: number; reqPerSec: number; cpuUs: number }> = [];
  for (const spin of values.spins.split(',').map(Number)) {
    const server = await startProcess(
      ['bench/handler-ceiling.ts', '--serve', String(spin)],
      {},
      { path: '/ready' },
      `${import.meta.dirname}/..`,
    );
    try {
      const pid = server.child.pid ?? 0;
      const next = () => ({ path: '/answer' });
      await load({ base: server.base, connections: 32, seconds: 1, next }); // warm up
      const before = cpuOf(pid);
      const result = await load({ base: server.base, connections: 32, seconds, next });
      const cpuUs = ((cpuOf(pid) - before) * 1e6) / Math.max(1, result.ok);
      runs.push({ spin, reqPerSec: result.reqPerSec, cpuUs });
      console.log(
        `spin ${spin} µs: ${Math.round(result.reqPerSec)}/s, ${Math.round(cpuUs)} µs of CPU a request`,
      );
    } finally {
      await stopProcess(server.child);
    }
  }
  const bare = Math.max(0, ...runs.filter((r) => r.spin === 0).map((r) => r.reqPerSec));
  console.log(
    [
      '',
      '| handler spin | answers | server CPU per request | ratio to the best run without a spin |',
      '| --- | --- | --- | --- |',
      ...runs.map(
        (r) =>
          `| ${r.spin} µs | ${Math.round(r.reqPerSec)}/s | ${Math.round(r.cpuUs)} µs (${Math.round(r.cpuUs - r.spin)} besides the spin) | ${bare > 0 ? (r.reqPerSec / bare).toFixed(2) : ''} |`,
      ),
    ].join('\n'),
  );
}
