/**
 * Polls `read` every 50 ms until `accept` takes its value (answered), or fails with the last value read after
 * `timeoutMs`: for tests that watch a real worker or process do its work on the system clock.
 */
export async function waitFor<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  // A guard against a hang: beside CI's journeys what takes a second quiet can take half a minute.
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
