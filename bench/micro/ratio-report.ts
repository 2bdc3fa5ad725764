/**
 * What the micro benchmarks share: the fastest of a few runs (the least disturbed by a noisy
 * machine), and one line per measure as a ratio to a baseline measured in the same run, with
 * PASS/MISS against its target.
 */
export function fastestMs(run: () => unknown, repeats = 3): number {
  let fastest = Infinity;
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/** `names`: how the line calls the measured way and the baseline (e.g. `['exact', 'doubles']`). */
export function reportRatio(names: readonly [string, string], label: string, time: number, baseline: number, target: number): void {
  const ratio = time / baseline;
  const ms = (value: number) => `${value.toFixed(1).padStart(8)} ms`;
  console.log(
    `${label.padEnd(44)} ${names[0]} ${ms(time)}   ${names[1]} ${ms(baseline)}   ratio ${ratio.toFixed(2)}  (target ≤ ${target})  ${ratio <= target ? 'PASS' : 'MISS'}`,
  );
}
