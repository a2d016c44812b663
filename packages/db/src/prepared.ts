import pg from 'pg';

/**
 * The hot statements (every signed-in request's session read, the contacts screen's first page and
 * its search) as named prepared statements: PostgreSQL parses and plans each once per connection
 * instead of on every request. Planning the first page took longer than running it (0.06 against
 * 0.02 ms); prepared, it answered about 25% more requests a second (docs/benchmarks-history.md,
 * 2026-12-01). Only constant texts whose columns are listed are registered (a `select *` prepared
 * before a migration adds a column would fail once after it), and only on pools that keep a
 * connection per client: behind a pooler in transaction mode a statement prepared on one server
 * connection is unknown on the next, so those pools never prepare.
 */
const names = new Map<string, string>();

/** Registers `text` to run as a named prepared statement; returns it unchanged. Call once, at load. */
export function preparedStatement(text: string): string {
  if (!names.has(text)) names.set(text, `lampstand_${names.size + 1}`);
  return text;
}

/** The name `text` is prepared under, when it is registered. */
export function statementName(text: string): string | undefined {
  return names.get(text);
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const clientPrototype = pg.Client.prototype as unknown as { query: Query };

/**
 * A pg client that sends a registered text as its named statement (pg prepares it on the
 * connection the first time and then only binds and runs it). kysely calls `query(text, values)`;
 * every other form goes to pg's own `query` as it is.
 */
export class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.query = ((...args: unknown[]) => {
      // Looked up at each call, not kept: pg's own method (a bench's recorder may wrap it).
      const query = clientPrototype.query;
      const [text, values] = args;
      const name = typeof text === 'string' && args.length === 2 ? names.get(text) : undefined;
      if (name) return query.call(this, { name, text, values: values as unknown[] });
      return query.apply(this, args);
    }) as pg.Client['query'];
  }
}
