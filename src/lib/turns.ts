/**
 * How long a long piece of work (an import, the events of a large unit of work) runs before it lets
 * the event loop serve other requests. SQLite answers synchronously, so such work never waits for the
 * database: without turns, an import of 1 000 objects would hold every other request, reads
 * included, for its whole duration.
 */
export const TURN_MS = 5;

/**
 * A pause point for one piece of work: resolves at once while its current turn is younger than
 * TURN_MS, after a round of the event loop (other requests' I/O included) otherwise.
 */
export function turns(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < TURN_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
