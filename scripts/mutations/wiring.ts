import type { Mutation } from './mutation.ts';

/** One mutation per feed kind: the same edit, caught by that feed's test alone. */
const SCN_AFTER_ROWS = {
  file: 'src/kernel/feed-page.ts',
  find:
    '  const scn = await currentScn(db);\n' +
    '  const rows = await spec.rows(page.sinceScn, page.offset, page.limit + 1);\n',
  replace:
    '  const rows = await spec.rows(page.sinceScn, page.offset, page.limit + 1);\n' +
    '  const scn = await currentScn(db);\n',
};

const FEEDS: Array<[name: string, testName: string]> = [
  ['articles', 'the article feed'],
  ['stock', 'the stock feed'],
  ['prices', 'the price feed'],
  ['client-purchases', 'the client purchase feed'],
];

/**
 * Wiring and single-statement guards: what holds the ledger, the SQLite write lock, the back-office
 * routes and the change feeds' SCN together.
 */
export const WIRING_MUTATIONS: Mutation[] = [
  {
    name: 'ledger-verification-always-clean',
    what: 'verifyLedger reports no mismatch whatever the levels and movements say',
    edits: [
      {
        file: 'src/areas/stock/stock-ledger-service.ts',
        find: 'return this.#read.ledgerMismatches();',
        replace: 'return Promise.resolve([]);',
      },
    ],
    tests: ['src/areas/stock/test/ledger-verification.test.ts'],
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'sqlite-deferred-begin',
    what: 'SQLite write transactions open with a plain (deferred) BEGIN instead of BEGIN IMMEDIATE',
    edits: [
      {
        file: 'src/kernel/db/sqlite-driver.ts',
        find: "CompiledQuery.raw('begin immediate')",
        replace: "CompiledQuery.raw('begin')",
      },
    ],
    tests: ['test/sqlite-immediate.test.ts'],
    engines: ['sqlite'],
  },
  {
    name: 'statistics-new-index-ignored',
    what: 'SQLite statistics leave alone a table whose index (added by a migration) has no sqlite_stat1 row',
    edits: [
      {
        file: 'src/kernel/db/statistics.ts',
        find: '(size > 0 && unanalysedIndex.has(name))',
        replace: 'false',
      },
    ],
    tests: ['src/kernel/db/statistics.test.ts'],
    testNames: 'gained an index',
    engines: ['sqlite'],
  },
  {
    name: 'statistics-size-by-max-rowid',
    what: 'SQLite statistics size a table by max(rowid), so numbers that start high read as growth at every start',
    edits: [
      {
        file: 'src/kernel/db/statistics.ts',
        find: `\n    - (SELECT min(\${c}) FROM \${sql.table(table)}) + 1 AS n`,
        replace: ' AS n',
      },
    ],
    tests: ['src/kernel/db/statistics.test.ts'],
    testNames: 'span of its keys',
    engines: ['sqlite'],
  },
  {
    name: 'stock-read-article-by-key',
    what:
      "one article's stock finds the article by `article_no = ?`: SQLite takes the unique key to the " +
      "article's own row (a page of its own, with its texts) and leaves the flags' covering index unread",
    edits: [
      {
        file: 'src/areas/stock/stock-read-repository.ts',
        find: `          .selectFrom(sql<{ k: string }>\`(select cast(\${v.article} as text) as k)\`.as('q'))
          .innerJoin(articleFlags(this.db).as('a'), 'a.article_no', 'q.k')`,
        replace: `          .selectFrom(articleFlags(this.db).as('a'))
          .where('a.article_no', '=', v.article)`,
      },
    ],
    tests: ['src/areas/stock/test/stock-query-plans.test.ts'],
    engines: ['sqlite'],
  },
  {
    name: 'reader-reads-on-serving-thread',
    what: 'the SQLite reader runs every read on the serving connection, so a slow read holds the event loop',
    edits: [
      {
        file: 'src/kernel/db/sqlite-reader.ts',
        find: "      if (state !== 'ready') {\n        if (state === 'idle') start();\n        return fallback.rows(query);\n",
        replace:
          "      if (state !== 'ready' || query) {\n        if (state === 'idle') start();\n        return fallback.rows(query);\n",
      },
    ],
    tests: ['src/kernel/db/sqlite-reader.test.ts'],
    testNames: 'own thread',
    engines: ['sqlite'],
  },
  {
    name: 'reader-holds-a-snapshot',
    what: 'the reader thread keeps one read transaction open, so it answers from a snapshot older than the writes before it',
    edits: [
      {
        file: 'src/kernel/db/sqlite-reader.ts',
        find: "db.pragma('query_only = ON');\n",
        replace:
          "db.pragma('query_only = ON');\ndb.prepare('begin').run();\ndb.prepare('select count(*) from sqlite_master').get();\n",
      },
    ],
    tests: ['src/kernel/db/sqlite-reader.test.ts', 'src/areas/pricing/test/article-price-read.test.ts'],
    testNames: 'answered before the read|asked for after it',
    engines: ['sqlite'],
  },
  {
    name: 'reader-drops-unanswered-reads',
    what: 'reads the reader thread had not answered when it ended are never answered',
    edits: [
      {
        file: 'src/kernel/db/sqlite-reader.ts',
        find: '    for (const id of [...pending.keys()]) rerun(id);\n',
        replace: '',
      },
    ],
    tests: ['src/kernel/db/sqlite-reader.test.ts'],
    testNames: 'had not answered',
    engines: ['sqlite'],
  },
  {
    name: 'migration-former-names-ignored',
    what: 'a database that applied a renumbered migration under its former name is migrated as it is (and refused)',
    edits: [
      {
        file: 'src/kernel/db/database.ts',
        find: '  await adoptFormerNames(database.db, database.engine, migrations);\n',
        replace: '',
      },
    ],
    tests: ['src/kernel/db/former-names.test.ts'],
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'customers-admin-routes-unregistered',
    what: 'the customers area no longer hands its back-office routes to the server (Area.adminRoutes)',
    edits: [
      {
        file: 'src/areas/customers/index.ts',
        find: '  adminRoutes: CUSTOMERS_ADMIN_ROUTES,\n',
        replace: '',
      },
    ],
    tests: ['src/areas/customers/test/admin-customers.test.ts'],
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'shops-admin-routes-unregistered',
    what: 'the shops area no longer hands its back-office routes to the server (Area.adminRoutes)',
    edits: [
      {
        file: 'src/areas/shops/index.ts',
        find: '  adminRoutes: SHOPS_ADMIN_ROUTES,\n',
        replace: '',
      },
    ],
    tests: ['src/areas/shops/test/admin-shops.test.ts'],
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'pg-named-query-describes-every-run',
    what: "a named statement's run asks PostgreSQL for its rows' shape every time (decision 48 undone)",
    edits: [
      {
        file: 'src/kernel/db/pg-named-query.ts',
        find: 'if (shape === undefined || this.rows !== undefined || !this.hasBeenParsed(connection)) {',
        replace: 'if (shape === undefined || this.rows !== undefined || this.hasBeenParsed(connection)) {',
      },
    ],
    tests: ['src/kernel/db/pg-named-query.test.ts'],
    testNames: 'asks for the rows',
    engines: ['postgres'],
  },
  {
    name: 'pg-reader-one-round-trip-each',
    what: 'the PostgreSQL reader sends each read of a turn on its own instead of as one pipeline (decision 48 undone)',
    edits: [
      {
        file: 'src/kernel/db/pg-reader.ts',
        find: '    if (entries.length === 1) alone(entries[0] as Entry);\n',
        replace: '    if (entries.length >= 1) for (const entry of entries) alone(entry);\n',
      },
    ],
    tests: ['src/kernel/db/pg-reader.test.ts'],
    testNames: 'in one pipeline',
    engines: ['postgres'],
  },
  {
    name: 'pg-reader-refusal-fails-the-rest',
    what: 'the reads after one the server refused in a pipeline are refused with its error instead of run again',
    edits: [
      {
        file: 'src/kernel/db/pg-reader.ts',
        find: '        this.#alone(entry);\n',
        replace: '        entry.reject(error);\n',
      },
    ],
    tests: ['src/kernel/db/pg-reader.test.ts'],
    testNames: 'refuses',
    engines: ['postgres'],
  },
  {
    name: 'pg-reader-ended-connection-reused',
    what: 'a connection the server ended (FATAL) under a pipeline goes back to the pool, where the reads run again take it',
    edits: [
      {
        file: 'src/kernel/db/pg-reader.ts',
        find: "this.#client.release(error !== undefined && !(refused && error.severity === 'ERROR'));",
        replace: 'this.#client.release(error !== undefined && !refused);',
      },
    ],
    tests: ['src/kernel/db/pg-reader.test.ts'],
    testNames: 'connection ended by the server',
    engines: ['postgres'],
  },
  {
    name: 'article-read-built-per-request',
    what: 'the single-article read by article number built and compiled by Kysely on every request (decision 52 undone)',
    edits: [
      {
        file: 'src/areas/catalog/article-document-repository.ts',
        find: '    return firstOf(this.#byArticleNo({ articleNo }), this.db, reader);\n',
        replace:
          "    return firstOf(this.db.selectFrom('article as a').leftJoin('article_document as d', (j) => j.onRef('d.article_no', '=', 'a.article_no').onRef('d.scn', '=', 'a.scn')).select(COLUMNS).where('a.article_no', '=', articleNo).compile(), this.db, reader);\n",
      },
    ],
    tests: ['src/areas/catalog/test/article-read-on-thread.test.ts'],
    testNames: 'builds no statement after its first',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'scn-read-built-per-call',
    what: 'the SQLite SCN read built and compiled by Kysely on every call (decision 52 undone)',
    edits: [
      {
        file: 'src/kernel/db/scn-counter.ts',
        find: '  currentScnText ??= scnCounterValue(db).compile();\n',
        replace: '  currentScnText = scnCounterValue(db).compile();\n',
      },
    ],
    tests: ['src/areas/catalog/test/article-read-on-thread.test.ts'],
    testNames: 'builds no statement after its first',
    engines: ['sqlite'],
  },
  {
    name: 'image-packages-loaded-at-start',
    what: 'sharp (with libvips) loads when the server starts instead of with the first image (decision 53 undone)',
    edits: [
      {
        file: 'src/kernel/image-bytes.ts',
        find: "export const sharp = lazyPackage<typeof import('sharp')['default']>('sharp');",
        replace: "import sharpNow from 'sharp';\nexport const sharp = () => sharpNow;",
      },
    ],
    tests: ['test/startup-lazy-packages.test.ts'],
    engines: ['sqlite'],
  },
  {
    name: 'ubl-package-loaded-at-start',
    what: 'xmlbuilder2 loads when the server starts instead of with the first UBL document (decision 53 undone)',
    edits: [
      {
        file: 'src/areas/billing/ubl/ubl-document.ts',
        find: "const xmlbuilder2 = lazyPackage<typeof import('xmlbuilder2')>('xmlbuilder2');",
        replace: "import * as xmlbuilder2Now from 'xmlbuilder2';\nconst xmlbuilder2 = () => xmlbuilder2Now;",
      },
    ],
    tests: ['test/startup-lazy-packages.test.ts'],
    engines: ['sqlite'],
  },
  {
    name: 'serve-with-v8-young-generation',
    what: "tv2 serve runs with V8's own young generation, up to 2 × 64 MiB semi-spaces (decision 51 undone)",
    edits: [
      {
        file: 'bin/tv2.js',
        find: "  process.argv[2] === 'serve' &&\n",
        replace: '  false &&\n',
      },
    ],
    tests: ['test/operability-heap.test.ts'],
    testNames: 'serves with 16 MiB semi-spaces',
    engines: ['sqlite'],
  },
  {
    name: 'list-price-stored-with-a-rowid',
    what: 'SQLite list prices kept in a rowid table beside an index of their key, so a price is two searches (decision 50 undone)',
    edits: [
      {
        file: 'src/areas/pricing/migrations/0047_list_price_clustered.ts',
        find: '  ) WITHOUT ROWID`.execute(db);\n',
        replace: '  )`.execute(db);\n',
      },
    ],
    tests: ['src/areas/pricing/test/query-plans.test.ts'],
    testNames: 'read with the customer',
    engines: ['sqlite'],
  },
  {
    name: 'stock-scn-read-before-the-rows',
    what: "one article's stock on SQLite takes the SCN read before its rows (per turn) instead of in their statement (decision 49 undone)",
    edits: [
      {
        file: 'src/areas/stock/stock-read-repository.ts',
        find: '          .$if(!onPostgres(this.db), (qb) =>\n',
        replace: '          .$if(false, (qb) =>\n',
      },
      {
        file: 'src/areas/stock/stock-read-repository.ts',
        find: '  get articleStockHasScn(): boolean {\n    return !onPostgres(this.db);\n',
        replace: '  get articleStockHasScn(): boolean {\n    return false;\n',
      },
    ],
    tests: ['src/areas/stock/test/article-stock-on-thread.test.ts'],
    testNames: 'reads the SCN in the statement of the levels',
    engines: ['sqlite'],
  },
  {
    name: 'stock-answer-made-on-the-serving-thread',
    what: "one article's stock answer is made of rows handed back from the reader thread, not on it (decision 49 undone)",
    edits: [
      {
        file: 'src/areas/stock/stock-ledger-service.ts',
        find: '    return this.#lists.articleStockText(root, audience, articleNo, locationCode, this.database.reader);\n',
        replace: '    return Promise.resolve(undefined);\n',
      },
    ],
    tests: ['src/areas/stock/test/article-stock-on-thread.test.ts'],
    testNames: 'the bytes a server without the thread answers',
    engines: ['sqlite'],
  },
  {
    name: 'article-read-on-the-serving-connection',
    what: 'the single-article read runs on the serving connection instead of the SQLite reader thread (decision 49 undone)',
    edits: [
      {
        file: 'src/areas/catalog/article-document-repository.ts',
        find: '  const rows = reader ? await reader.rows(query) : (await db.executeQuery(query)).rows;\n',
        replace:
          '  const rows = reader ? await reader.shortRows(query) : (await db.executeQuery(query)).rows;\n',
      },
    ],
    tests: ['src/areas/catalog/test/article-read-on-thread.test.ts'],
    testNames: 'reads the article on the reader thread',
    engines: ['sqlite'],
  },
  {
    name: 'reader-text-of-a-refused-statement',
    what: 'the reader thread answers a statement it refused with no text (the caller reads again) instead of its error',
    edits: [
      {
        file: 'src/kernel/db/sqlite-reader.ts',
        find: '      out.push(batch[i], 3, null, { message: String(error && error.message), code: error && error.code }, columns);\n',
        replace:
          '      out.push(batch[i], made === null ? 3 : 2, null, made === null ? { message: String(error && error.message), code: error && error.code } : null, columns);\n',
      },
    ],
    tests: ['src/kernel/db/sqlite-reader.test.ts'],
    testNames: 'refuses a statement of a text',
    engines: ['sqlite'],
  },
  ...FEEDS.map(
    ([name, testName]): Mutation => ({
      name: `feed-scn-after-rows-${name}`,
      what: `a change feed page reads the SCN after its rows (a commit in between is lost), seen through ${testName}`,
      edits: [SCN_AFTER_ROWS],
      tests: ['test/feed-consistency.test.ts'],
      testNames: testName,
      engines: ['sqlite', 'postgres'],
    }),
  ),
];
