/**
 * The request a piece of work belongs to (issue 31 part 7, docs/decisions/0027): its id, taken from a valid
 * `X-Request-Id` or generated, is carried through the async calls of the request, so that the device commands
 * it stores record it (`device_commands.request_id`, filled by the schema's default) without every service
 * passing it down. In db/ because the schema's default reads it (db is beneath lib: docs/ARCHITECTURE.md).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const storage = new AsyncLocalStorage<{ requestId: string }>();

/** An incoming id is kept when it is 1–128 of letters, digits and `-_.:`; anything else gets a fresh UUID. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
}

export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

/** The id of the request whose work is running now; null outside a request (jobs, start-up). */
export function currentRequestId(): string | null {
  return storage.getStore()?.requestId ?? null;
}

/** Work that must not count as the current request's (the device worker woken by it serves all requests). */
export function outsideRequest<T>(work: () => T): T {
  return storage.exit(work);
}
