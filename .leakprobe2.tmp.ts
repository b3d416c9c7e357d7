import { startApp } from './src/app.ts';
import { loadConfig } from './src/config.ts';
import { seedCatalog } from './src/demo/seed.ts';
const url = `sqlite:/tmp/leakprobe-${process.pid}.db`;
const r = await startApp(loadConfig({}, { databaseUrl: url, demo: false }), { logger: false });
await seedCatalog(r.services, { articles: 20000, images: false, batchSize: 1000 });
const { secret } = await r.services.auth.createUser({ name: 'x', roles: ['B2B'] });
const tok = (await r.app.inject({ method: 'GET', url: '/TV2/GetToken', headers: { authorization: `Basic ${Buffer.from(`x:${secret}`).toString('base64')}` } })).json().GETTOKEN.TOKEN;
const address = await r.app.listen({ port: 0, host: '127.0.0.1' });
for (let pass = 0; pass < 3; pass++) {
  for (let off = 1; off < 20000; off += 1000) {
    const res = await fetch(`${address}/TV2/Execute/APIPACK.B2B_GetAllArticles?stroffset=${off}&strlimit=1000`, { headers: { authorization: `Bearer ${tok}` } });
    await res.arrayBuffer();
  }
  globalThis.gc?.();
  const m = process.memoryUsage();
  console.log('fetch', pass, Math.round(m.rss / 1e6), Math.round(m.heapUsed / 1e6), Math.round(m.external / 1e6));
}
await r.close();
