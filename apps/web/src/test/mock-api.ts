/**
 * A fake server for component tests: `mockApi({ 'POST /api/auth/codes/': ... })` replaces fetch. Each handler
 * gets the parsed body and the query and returns `[status, body]` (or a body, meaning 200), or throws to
 * simulate a network failure. Every call is recorded so tests can assert what was sent.
 */
import { vi } from 'vitest';

/** `[status, body]`, or a body meaning 200 (`undefined` means 204). */
export type MockReply = [number, unknown] | Record<string, unknown> | unknown[] | undefined;
export type MockHandler = (request: {
  body: unknown;
  query: URLSearchParams;
  headers: Record<string, string>;
}) => MockReply | Promise<MockReply>;

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

export interface MockApi {
  calls: RecordedCall[];
  /** Calls to one `METHOD /path/`. */
  callsTo(route: string): RecordedCall[];
  /** Adds or replaces handlers. */
  on(handlers: Record<string, MockHandler | MockReply>): void;
}

/** Thrown by a handler to make fetch reject, as a lost connection does. */
export const networkFailure = () => {
  throw new TypeError('Failed to fetch');
};

export function mockApi(initial: Record<string, MockHandler | MockReply> = {}): MockApi {
  const handlers = new Map<string, MockHandler | MockReply>(Object.entries(initial));
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call = { method, path: url.pathname, query: url.searchParams, body, headers };
    calls.push(call);
    const handler = handlers.get(`${method} ${url.pathname}`);
    if (handler === undefined) {
      return new Response(JSON.stringify({ detail: `No mock for ${method} ${url.pathname}` }), {
        status: 404,
      });
    }
    const reply =
      typeof handler === 'function'
        ? await (handler as MockHandler)({ body, query: url.searchParams, headers })
        : handler;
    const [status, payload]: [number, unknown] =
      Array.isArray(reply) && reply.length === 2 && typeof reply[0] === 'number'
        ? [reply[0], reply[1]]
        : [200, reply];
    if (status === 204 || payload === undefined)
      return new Response(null, { status: status === 200 ? 204 : status });
    return new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (route) => {
      const [method, path] = route.split(' ');
      return calls.filter((call) => call.method === method && call.path === path);
    },
    on: (more) => {
      for (const [key, value] of Object.entries(more)) handlers.set(key, value);
    },
  };
}
