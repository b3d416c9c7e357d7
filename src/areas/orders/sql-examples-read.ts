import type { RepositorySqlExamples } from '../../kernel/db/sql-examples.ts';

/** Example calls of the orders' read repositories (the seed of sql-examples.ts: order 1 of customer 10001). */
export const READ_SQL_EXAMPLES: RepositorySqlExamples[] = [];
