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

/**
 * Counts the statements Kysely builds and compiles, by the kind of their root node (a statement
 * kept compiled, kernel/db/compiled-once.ts, or kept as text is run without being built).
 */
export class BuildCounter implements KyselyPlugin {
  built: string[] = [];
  transformQuery({ node }: PluginTransformQueryArgs) {
    // a statement run as kept text (CompiledQuery.raw) reaches the plugins as a RawNode: not built
    if (node.kind !== 'RawNode') this.built.push(node.kind);
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs) {
    return result;
  }
}
