/**
 * The one fetch wrapper (CONVENTIONS habit 7). It adds the bearer token, and on a 401 runs ONE refresh
 * (`POST /api/auth/token/refresh/ {refresh}`, which also answers a new refresh token that replaces the stored
 * one) shared by every request in flight, then retries each request once
 * with the new access token. A 401 that the refresh cannot cure clears the session and calls the session-lost
 * handler (the router sends the user to /login).
 */
import type { z } from 'zod';
import { noteServerDate } from './server-clock';
import { clearSession, readStored, writeStored } from './storage';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<S extends z.ZodType | undefined = undefined> {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Empty values (undefined, null, '') are left out of the query string. */
  query?: Record<string, QueryValue>;
  /** Default true: send the bearer token and refresh on 401. False for the login and recovery calls. */
  auth?: boolean;
  /** Response schema from @propusk/contracts; a response that does not match is still returned as is. */
  schema?: S;
  /** Extra request headers (the guest pass holder's key); never the authorization, which is the wrapper's. */
  headers?: Record<string, string>;
}

const isFormData = (body: unknown): body is FormData =>
  typeof FormData !== 'undefined' && body instanceof FormData;

/** The server answered with a status outside 2xx. `body` is its JSON (`{detail}` or `{field: [msgs]}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
    this.name = 'ApiError';
  }

  /** `detail` of an error body, when it is a string. */
  get detail(): string | undefined {
    const detail = (this.body as { detail?: unknown } | null)?.detail;
    return typeof detail === 'string' ? detail : undefined;
  }

  /** The stable `code` of an error body (contracts' error-codes.ts), when there is one. */
  get code(): string | undefined {
    const code = (this.body as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  }

  get retryAfter(): number | undefined {
    const value = (this.body as { retry_after?: unknown } | null)?.retry_after;
    return typeof value === 'number' ? value : undefined;
  }

  /** Messages of one field in a `{field: [msgs]}` body (a plain string counts as one message). */
  fieldMessages(field: string): string[] {
    const value = (this.body as Record<string, unknown> | null)?.[field];
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
    return [];
  }
}

/** fetch itself failed: no connection, DNS, CORS, an aborted request. */
export class NetworkError extends Error {
  constructor(override readonly cause: unknown) {
    super('Network error');
    this.name = 'NetworkError';
  }
}

/** A session lost before the router registered its handler (a read the entry sent early): told once it does. */
let isSessionLostUntold = false;
let untoldPhone: string | null = null;
/** `phone`: the number of the session that ended (its stored copy is cleared by then). */
let onSessionLost: (phone: string | null) => void = (phone) => {
  isSessionLostUntold = true;
  untoldPhone = phone;
};

/** The router registers what an unrecoverable 401 does (go to /login). */
export function setSessionLostHandler(handler: (phone: string | null) => void): void {
  onSessionLost = handler;
  if (isSessionLostUntold) {
    isSessionLostUntold = false;
    handler(untoldPhone);
  }
}

/** The session is over: its stored values go, and the router is told (with the number it was for). */
function loseSession(): void {
  const phone = readStored('phone');
  clearSession();
  onSessionLost(phone);
}

export const REFRESH_PATH = '/api/auth/token/refresh/';

let refreshInFlight: Promise<string | null> | null = null;

type LockManager = { request<T>(name: string, callback: () => Promise<T>): Promise<T> };

/**
 * Runs a refresh under a lock shared by every tab of the site (Web Locks API, where the browser has it): two
 * tabs that present the same rotated refresh token at once would look like a reused token and end the session.
 */
function acrossTabs<T>(callback: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  return locks ? locks.request('propusk-refresh', callback) : callback();
}

/**
 * Single flight: all callers that hit a 401 at the same time wait for the same refresh; other tabs wait for
 * the lock, and a tab that finds the stored token changed meanwhile takes the other tab's new tokens.
 */
export function refreshAccessToken(): Promise<string | null> {
  const seen = readStored('refresh_token');
  refreshInFlight ??= acrossTabs(async () => {
    const refresh = readStored('refresh_token');
    if (!refresh) return null;
    if (refresh !== seen) return readStored('access_token');
    try {
      const response = await fetch(REFRESH_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refresh }),
      });
      // A refused refresh's body is read too: an unread one keeps the request open for the browser.
      const body = (await readBody(response)) as { access?: unknown; refresh?: unknown } | undefined;
      if (!response.ok || !body) return null;
      if (typeof body.access !== 'string') return null;
      writeStored('access_token', body.access);
      // The server rotates the refresh token on every refresh: the old one must not be presented again once
      // the new one has been (that would count as reuse and end the session).
      if (typeof body.refresh === 'string') writeStored('refresh_token', body.refresh);
      return body.access;
    } catch {
      return null;
    }
  }).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function buildUrl(path: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function send(url: string, options: RequestOptions<z.ZodType | undefined>, token: string | null) {
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  // A form (a file upload) sets its own multipart content type.
  if (options.body !== undefined && !isFormData(options.body)) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body:
        options.body === undefined
          ? undefined
          : isFormData(options.body)
            ? options.body
            : JSON.stringify(options.body),
    });
    noteServerDate(response.headers?.get('date') ?? null);
    return response;
  } catch (error) {
    throw new NetworkError(error);
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text };
  }
}

type Result<S> = S extends z.ZodType ? z.infer<S> : unknown;

/** Sends with the bearer token; on a 401, one shared refresh and one retry (or the session is lost). */
async function sendWithAuth(url: string, options: RequestOptions<z.ZodType | undefined>): Promise<Response> {
  const useAuth = options.auth ?? true;
  const usedToken = useAuth ? readStored('access_token') : null;
  let response = await send(url, options, usedToken);

  if (response.status === 401 && useAuth) {
    // Read at once (an unread body keeps the request open), and told if the session cannot be renewed.
    const refused = await readBody(response);
    // Another request may already have refreshed while this one was in flight: reuse its token.
    const current = readStored('access_token');
    const token = current && current !== usedToken ? current : await refreshAccessToken();
    if (!token) {
      loseSession();
      throw new ApiError(401, refused);
    }
    response = await send(url, options, token);
    if (response.status === 401) {
      loseSession();
      throw new ApiError(401, await readBody(response));
    }
  }
  return response;
}

/**
 * GETs sent before the screen that reads them exists (issue 32 item 8): a page opened on /start with a stored
 * session sends its first screen's reads from the entry while the router's chunk is still loading
 * (routes/user/resident-home.ts). The screen's own `api.get` of the same URL takes the answer instead of asking
 * again: as many times as the sender said, within EARLY_READ_TTL_MS, for the same account; a refetch after that
 * goes to the server. Any write (POST, PATCH, PUT, DELETE) drops every answer not yet taken: it may change them.
 */
const EARLY_READ_TTL_MS = 10_000;
const earlyReads = new Map<
  string,
  { answer: Promise<unknown>; sentAt: number; phone: string | null; takers: number }
>();

/** Sends a GET now for a screen that will ask for it soon (`takers`: how many of its reads ask the same). */
export function sendEarlyRead(path: string, query?: Record<string, QueryValue>, takers = 1): void {
  const answer = apiRequest(path, { query });
  // A failure is the taker's to see (it would have met it itself); an answer nobody takes is dropped.
  answer.catch(() => undefined);
  earlyReads.set(buildUrl(path, query), { answer, sentAt: Date.now(), phone: readStored('phone'), takers });
}

/** Forgets every answer not yet taken (the web tests, between tests). */
export function dropEarlyReads(): void {
  earlyReads.clear();
}

/** The early answer to this GET, if one was sent (same path, same query in the same order) and is still good. */
function takeEarlyRead(path: string, options: RequestOptions<z.ZodType | undefined> | undefined) {
  const url = buildUrl(path, options?.query);
  const early = earlyReads.get(url);
  if (!early || options?.schema || options?.headers || options?.auth === false) return undefined;
  if (--early.takers < 1) earlyReads.delete(url);
  return Date.now() - early.sentAt < EARLY_READ_TTL_MS && early.phone === readStored('phone')
    ? early.answer
    : undefined;
}

export async function apiRequest<S extends z.ZodType | undefined = undefined>(
  path: string,
  options: RequestOptions<S> = {},
): Promise<Result<S>> {
  if ((options.method ?? 'GET') !== 'GET') earlyReads.clear();
  const response = await sendWithAuth(buildUrl(path, options.query), options);
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, body);
  if (options.schema) {
    const parsed = options.schema.safeParse(body);
    if (parsed.success) return parsed.data as Result<S>;
  }
  return body as Result<S>;
}

/** A file the server answers (an export): its bytes and the name from Content-Disposition. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** GET of a file through the same token and refresh handling; an error answer is thrown as ApiError. */
export async function apiDownload(
  path: string,
  query: Record<string, QueryValue>,
  fallbackName: string,
): Promise<DownloadedFile> {
  const response = await sendWithAuth(buildUrl(path, query), { method: 'GET' });
  if (!response.ok) throw new ApiError(response.status, await readBody(response));
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  return { blob: await response.blob(), filename };
}

/** Shorthands by method. */
export const api = {
  get: <S extends z.ZodType | undefined = undefined>(
    path: string,
    options?: Omit<RequestOptions<S>, 'method'>,
  ) =>
    (takeEarlyRead(path, options) as Promise<Result<S>> | undefined) ??
    apiRequest(path, { ...options, method: 'GET' }),
  post: <S extends z.ZodType | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions<S>, 'method' | 'body'>,
  ) => apiRequest(path, { ...options, method: 'POST', body }),
  patch: <S extends z.ZodType | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions<S>, 'method' | 'body'>,
  ) => apiRequest(path, { ...options, method: 'PATCH', body }),
  put: <S extends z.ZodType | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions<S>, 'method' | 'body'>,
  ) => apiRequest(path, { ...options, method: 'PUT', body }),
  delete: <S extends z.ZodType | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions<S>, 'method' | 'body'>,
  ) => apiRequest(path, { ...options, method: 'DELETE', body }),
};
