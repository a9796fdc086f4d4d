/**
 * The server's clock as the client last saw it: every answer's `Date` header gives the offset between the
 * server and this phone (to the second). An opening carries its tap's time in the server's clock, so that a
 * phone whose clock is set wrong is neither refused nor let through late (issue 32 item 1).
 */
let offsetMs = 0;

export function noteServerDate(header: string | null): void {
  if (!header) return;
  const server = Date.parse(header);
  if (!Number.isNaN(server)) offsetMs = server - Date.now();
}

/** Now, in the server's clock. */
export function serverNow(): Date {
  return new Date(Date.now() + offsetMs);
}
