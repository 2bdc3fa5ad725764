/**
 * Fault injection for the crash tests, inert unless `DESKSTORE_TEST_FAULT` is set: a
 * comma-separated list of `<point>:<text>`, where the engine worker exits (as a crash would
 * end it) at `<point>` of a write whose journal entry (`*-journal`) or request (`*-commit`,
 * a catalogue commit) contains `<text>`, or where the SQL worker runs out of heap on a query
 * whose text contains `<text>` (`sql-out-of-memory`). Only the crash tests set it
 * (test/integration/write-crash-outcome.test.ts, worker-memory.test.ts); nothing else reads it.
 */
export type FaultPoint = 'before-journal' | 'after-journal' | 'before-commit' | 'after-commit';

const faults: readonly { point: string; text: string }[] = (process.env.DESKSTORE_TEST_FAULT ?? '')
  .split(',')
  .filter((f) => f.includes(':'))
  .map((f) => ({ point: f.slice(0, f.indexOf(':')), text: f.slice(f.indexOf(':') + 1) }));

export function injectedCrash(point: FaultPoint, entry: unknown): void {
  if (faults.length === 0 || entry === undefined) return;
  const written = JSON.stringify(entry);
  if (faults.some((f) => f.point === point && written.includes(f.text))) process.exit(70);
}

/**
 * Fills the heap in small pieces until the worker's limit stops it, as a query whose memory
 * grows row by row would (engine/worker-limits.ts): the SQL worker on a query containing the
 * fault's text.
 */
export function injectedOutOfMemory(point: 'sql-out-of-memory', subject: string): void {
  if (!faults.some((f) => f.point === point && subject.includes(f.text))) return;
  const hoard: number[][] = [];
  for (;;) hoard.push(new Array<number>(1024).fill(hoard.length));
}
