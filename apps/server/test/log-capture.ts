/**
 * The lines a logger writes, kept for a test that reads the log (issue 44 part 4: one sink instead of a copy in
 * each such test). Hand `destination` to the process's logger (`createLogger(level, log.destination)`, through
 * createTestApp's `logger`) or to a bare pino in `configure`, then read `lines` (each line's JSON text) or
 * `entries` (each line parsed), both in the order written.
 */
import { Writable } from 'node:stream';

export interface LogCapture<Entry = Record<string, unknown>> {
  readonly destination: Writable;
  readonly lines: string[];
  readonly entries: Entry[];
  /** Forgets what was written so far (a test that reads only its own lines). */
  clear(): void;
}

export function captureLog<Entry = Record<string, unknown>>(): LogCapture<Entry> {
  const lines: string[] = [];
  const entries: Entry[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        lines.push(line);
        entries.push(JSON.parse(line) as Entry);
      }
      done();
    },
  });
  return {
    destination,
    lines,
    entries,
    clear() {
      lines.length = 0;
      entries.length = 0;
    },
  };
}
