import pg from 'pg';

/**
 * A run of a named (prepared) statement on PostgreSQL that asks the server for the shape of its
 * rows once per connection, not on every run (decision 48).
 *
 * The pg driver sends Describe with every run of a statement, parses the RowDescription that
 * comes back and builds the row object's template and a parser per column again (pg 8's
 * `Result.addFields`, a dictionary-mode object copied for every row). For a single read that was
 * about a quarter of Node's work per statement. A prepared statement's row shape cannot change
 * while it exists on a connection (the server refuses to run it: "cached plan must not change
 * result type"), so the shape the first run described serves every later run on that connection:
 * a later run sends Bind, Execute and Sync only, and each row is built by a function made for that
 * shape, one object literal with the columns in order.
 *
 * Everything else is pg's own Query: errors, cancelled rows, the read timeout, the callback.
 */

type Parser = (text: string) => unknown;
type RowBuilder = (
  values: ReadonlyArray<string | null>,
  parsers: readonly Parser[],
) => Record<string, unknown>;

export interface RowShape {
  readonly fields: readonly PgField[];
  readonly parsers: readonly Parser[];
  readonly build: RowBuilder;
}

interface PgField {
  name: string;
  dataTypeID: number;
  format?: string;
}

interface PgTypes {
  getTypeParser(oid: number, format?: 'text' | 'binary'): Parser;
}

/** What this relies on of pg's connection (pg 8, lib/connection.js). */
export interface PgConnection {
  parsedStatements: Record<string, string>;
  execute(config: object): void;
  stream: { cork?(): void; uncork?(): void };
  bind(config: object): void;
  close(config: object): void;
  sync(): void;
}

/** What this relies on of pg's Query (pg 8, lib/query.js). */
interface PgQueryInternals {
  name?: string;
  values?: unknown[];
  portal: string;
  binary?: boolean;
  rows?: number;
  callback?: (error: Error | null, result?: unknown) => void;
  _result: { fields: PgField[]; _parsers?: Parser[]; rows: unknown[]; _types?: PgTypes };
  _accumulateRows: boolean;
  _canceledDueToError: unknown;
  hasBeenParsed(connection: PgConnection): boolean;
  prepare(connection: PgConnection): void;
  handleRowDescription(message: { fields: PgField[] }): void;
  handleDataRow(message: { fields: (string | null)[] }): void;
  handleError(error: unknown, connection: PgConnection): void;
  _getRows(connection: PgConnection, rows: number | undefined): void;
}

type PgQueryClass = new (
  text: string,
  values: unknown[],
  callback: (error: Error | null, result?: unknown) => void,
) => PgQueryInternals;

const PgQuery = pg.Query as unknown as PgQueryClass;
export const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils
  .prepareValue;

/** Each connection's described statements: name → shape. */
const described = new WeakMap<PgConnection, Map<string, RowShape>>();

/**
 * The shape of the rows of the statement `name` with the text `text` on `connection`, if that
 * connection has prepared it and described its rows.
 */
export function describedShape(connection: PgConnection, name: string, text: string): RowShape | undefined {
  if (connection.parsedStatements[name] !== text) return undefined;
  return described.get(connection)?.get(name);
}

/** Row builders by column names: statements with the same columns share one. */
const builders = new Map<string, RowBuilder>();
const BUILDERS_MAX = 4000;

function builderFor(names: readonly string[]): RowBuilder {
  const key = names.join('\u0000');
  let build = builders.get(key);
  if (build === undefined) {
    // An object literal with the columns in order: one hidden class, no dictionary mode. A name
    // that repeats keeps its last value, as pg's rows do.
    const body = names
      .map((name, i) => `${JSON.stringify(name)}: v[${i}] === null ? null : p[${i}](v[${i}])`)
      .join(',\n');
    build = new Function('v', 'p', `return {\n${body}\n};`) as RowBuilder;
    if (builders.size < BUILDERS_MAX) builders.set(key, build);
  }
  return build;
}

function shapeOf(fields: PgField[], types: PgTypes | undefined): RowShape | undefined {
  // binary columns are never asked for here; a shape with one is left to pg
  if (fields.some((f) => f.format !== undefined && f.format !== 'text')) return undefined;
  const parsers = fields.map((f) =>
    types ? types.getTypeParser(f.dataTypeID, 'text') : pg.types.getTypeParser(f.dataTypeID, 'text'),
  );
  return {
    fields,
    parsers,
    build: builderFor(fields.map((f) => f.name)),
  };
}

/** A named statement's run: see the file's comment. Submitted with `client.query(new NamedQuery(...))`. */
export class NamedQuery extends PgQuery {
  #shape: RowShape | undefined;
  #connection: PgConnection | undefined;

  constructor(
    name: string,
    text: string,
    values: unknown[],
    callback: (error: Error | null, result?: unknown) => void,
  ) {
    // the text alone: pg copies a config object property by property (3 µs a run)
    super(text, values, callback);
    this.name = name;
  }

  override prepare(connection: PgConnection): void {
    this.#connection = connection;
    const shape = this.name === undefined ? undefined : described.get(connection)?.get(this.name);
    if (shape === undefined || this.rows !== undefined || !this.hasBeenParsed(connection)) {
      super.prepare(connection);
      return;
    }
    // pg's prepare without the Describe: the rows come as the shape described before
    this.#shape = shape;
    this._result.fields = shape.fields as PgField[];
    this._result._parsers = shape.parsers as Parser[];
    this._accumulateRows = true;
    try {
      connection.bind({
        portal: this.portal,
        statement: this.name,
        values: this.values,
        binary: this.binary,
        valueMapper: prepareValue,
      });
    } catch (error) {
      connection.close({ type: 'S', name: this.name });
      connection.sync();
      this.handleError(error, connection);
      return;
    }
    this._getRows(connection, this.rows);
  }

  override handleRowDescription(message: { fields: PgField[] }): void {
    super.handleRowDescription(message);
    const connection = this.#connection;
    if (connection === undefined || this.name === undefined) return;
    const shape = shapeOf(message.fields, this._result._types);
    if (shape === undefined) return;
    this.#shape = shape;
    let statements = described.get(connection);
    if (statements === undefined) {
      statements = new Map();
      described.set(connection, statements);
    }
    statements.set(this.name, shape);
  }

  override handleDataRow(message: { fields: (string | null)[] }): void {
    const shape = this.#shape;
    if (shape === undefined) {
      super.handleDataRow(message);
      return;
    }
    if (this._canceledDueToError) return;
    try {
      this._result.rows.push(shape.build(message.fields, shape.parsers));
    } catch (error) {
      this._canceledDueToError = error;
    }
  }
}
