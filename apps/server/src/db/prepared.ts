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

/**
 * Where drizzle keeps an executor's connection: `executor.session.client` (the pool, a transaction's pool
 * client, PGlite or its transaction object), and the options every session of one database shares. A prepared
 * query runs on `this.client` (drizzle-orm 0.45's NodePgPreparedQuery and PglitePreparedQuery), so a statement
 * built once for a database runs on a transaction's connection as an object whose own `client` is that one.
 */
interface DrizzleSession {
  client?: unknown;
  options?: object;
}

/** Statements built once per database (its sessions' shared options), to run on any of its transactions. */
const templatesByDatabase = new WeakMap<object, Map<string, object>>();

function sessionOf(executor: object): DrizzleSession | undefined {
  const session = (executor as { session?: DrizzleSession }).session;
  return session && typeof session === 'object' && session.client && session.options ? session : undefined;
}

/**
 * The statement `key` on `executor`. A transaction is a new executor each time: it takes the statement its
 * database built once (issue 44 part 5: building a query each call was a sixth of the server's CPU under the
 * mixed load), bound to the transaction's connection, instead of building it again.
 */
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
    statement = boundTemplate<Prepared>(executor, key, build);
    statements.set(key, statement);
  }
  return statement;
}

function boundTemplate<Prepared>(executor: object, key: string, build: () => Preparable<Prepared>): Prepared {
  const session = sessionOf(executor);
  const options = session?.options;
  let templates = options ? templatesByDatabase.get(options) : undefined;
  if (options && !templates) {
    templates = new Map();
    templatesByDatabase.set(options, templates);
  }
  let template = templates?.get(key) as (Prepared & { client?: unknown }) | undefined;
  if (template === undefined) {
    const query = build();
    // An empty name is node-postgres's unnamed statement.
    template = query.prepare(namedStatements ? statementName(key, query) : '') as Prepared & {
      client?: unknown;
    };
    if (templates && template.client === session?.client) templates.set(key, template);
  }
  if (!session || template.client === session.client) return template;
  return Object.create(template, { client: { value: session.client } }) as Prepared;
}
