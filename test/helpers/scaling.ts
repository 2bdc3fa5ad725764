/**
 * Guards against accidentally quadratic code without asserting wall-clock time: the same work is
 * done on an input `factor` times bigger, and the cost must grow about as the input does. The
 * cost is this process's CPU time, not elapsed time, so other processes competing for the cores
 * do not count; a slow machine slows both sizes alike, so the ratio holds; each size keeps the
 * cheapest of a few runs, so one disturbance cannot fake a super-linear cost.
 *
 * Linear code gives a ratio near `factor` (less when fixed costs dominate), quadratic code near
 * `factor²`: with the default factor 8, the bound 24 sits between 8 and 64.
 */
export function growthRatio(run: (size: number) => void, size: number, factor = 8, repeats = 5): number {
  const cpuMicros = (): number => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const fastest = (n: number): number => {
    let best = Infinity;
    for (let i = 0; i < repeats; i++) {
      const started = cpuMicros();
      run(n);
      best = Math.min(best, cpuMicros() - started);
    }
    return Math.max(best, 1);
  };
  fastest(size); // warm-up: JIT compilation and first-use allocations belong to neither size
  return fastest(size * factor) / fastest(size);
}

/** The bound for growthRatio's default factor: well above linear, well below quadratic. */
export const LINEAR_GROWTH_BOUND = 24;
