/**
 * GETs sent before the entry arrived: on a returning resident's /start, the page's inline script runs the file of
 * app/shell/full-app-preload.ts `startReadsScript`, which sends his first screen's reads and keeps them in
 * `self.propuskPageReads` (url → [access token, time sent, answer]). The app takes each once, for the same URL and
 * the same access token, within PAGE_READ_TTL_MS of its sending, as the early read of that URL (api-client.ts
 * `sendEarlyRead`). Only a 2xx answer is kept as it is: after any other (a 401 of a token the server no longer
 * takes), or none at all, the app sends the read itself, as it did before.
 */
import { noteServerDate } from './server-clock';
import { readStored } from './storage';

declare global {
  var propuskPageReads:
    | Record<string, [token: string, sentAt: number, answer: Promise<Response>]>
    | undefined;
}

/** A read left untaken this long is stale: the screen that wanted it is not the one the person went to. */
const PAGE_READ_TTL_MS = 10_000;

/** The answer (its JSON) the inline script has for this GET, or `send`'s, if the script's was not a 2xx. */
export function takePageRead(url: string, send: () => Promise<unknown>): Promise<unknown> | undefined {
  const reads = globalThis.propuskPageReads;
  const read = reads?.[url];
  if (!reads || !read) return undefined;
  delete reads[url];
  if (read[0] !== readStored('access_token') || Date.now() - read[1] > PAGE_READ_TTL_MS) return undefined;
  return read[2].then((response) => {
    if (!response.ok) return send();
    noteServerDate(response.headers.get('date'));
    return response.json();
  }, send);
}
