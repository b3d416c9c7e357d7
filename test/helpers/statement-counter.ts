import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';

/**
 * Counts the statements run through the database it is plugged into (`db.withPlugin(counter)`): one
 * per result, so a query built of subqueries counts once.
 */
export class StatementCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    this.count++;
    return args.result;
  }
}
