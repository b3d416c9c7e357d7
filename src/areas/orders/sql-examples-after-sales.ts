import type { RepositorySqlExamples } from '../../kernel/db/sql-examples.ts';

/** Example calls of the deliveries' and returns' repositories (the seed of sql-examples.ts: order 1 of customer 10001). */
export const AFTER_SALES_SQL_EXAMPLES: RepositorySqlExamples[] = [];
