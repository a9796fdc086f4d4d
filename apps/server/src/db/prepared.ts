/**
 * Named prepared statements for the queries that run on (almost) every request: the session check, the
 * barrier policy checks and the list pages.
 *
 * Drizzle sends a plain query as an unnamed statement, which PostgreSQL parses, analyses and plans on every
 * call; measured on the seeded database that is most of the PostgreSQL CPU of a cheap query (session check
 * 190 → 66 µs, own-barriers page 430 → 88 µs once prepared). A named statement is parsed once per pool
 * connection (node-postgres remembers which connection has which) and its plan is cached by PostgreSQL.
 * Building the query once also saves drizzle's SQL generation in Node on every call. On PGlite drizzle
 * ignores the name and the statement runs as before: same SQL, same results.
 *
 * A statement is built once per database handle and shape: values are `sql.placeholder(…)`, and a query
 * whose SQL depends on the request (an optional filter, the ordering) gets one statement per shape, named
 * by the caller's key. The key's statement name also carries a hash of the SQL text, so two shapes can never
 * share a name (node-postgres refuses a name reused with another text).
 */
import { createHash } from 'node:crypto';

interface Preparable<Prepared> {
  toSQL(): { sql: string };
  prepare(name: string): Prepared;
}

const statementsByExecutor = new WeakMap<object, Map<string, unknown>>();
/**
 * Key → statement name, once for the process: a key always builds the same SQL, so a transaction (a new
 * handle each time, whose statements are built at each call) skips the SQL generation and hash of the name.
 */
const namesByKey = new Map<string, string>();

function statementName(key: string, query: Preparable<unknown>): string {
  let name = namesByKey.get(key);
  if (name === undefined) {
    const digest = createHash('sha256').update(query.toSQL().sql).digest('base64url').slice(0, 12);
    name = `${key.slice(0, 40)}:${digest}`;
    namesByKey.set(key, name);
  }
  return name;
}

/**
 * Whether statements get names (DATABASE_PREPARED_STATEMENTS, set once by openDatabase). Off behind PgBouncer in
 * transaction mode: each transaction may run on another server connection, where a name parsed on the first
 * does not exist (and a name parsed twice on one is refused: `prepared statement … already exists`), so every
 * statement is sent unnamed (parsed and planned per call, as drizzle's plain queries are), with the same SQL.
 */
let namedStatements = true;

export function useNamedStatements(enabled: boolean): void {
  namedStatements = enabled;
}

export function preparedStatement<Prepared>(
  executor: object,
  key: string,
  build: () => Preparable<Prepared>,
): Prepared {
  let statements = statementsByExecutor.get(executor);
  if (!statements) {
    statements = new Map();
    statementsByExecutor.set(executor, statements);
  }
  let statement = statements.get(key) as Prepared | undefined;
  if (statement === undefined) {
    const query = build();
    // An empty name is node-postgres's unnamed statement.
    statement = query.prepare(namedStatements ? statementName(key, query) : '');
    statements.set(key, statement);
  }
  return statement;
}
