import { defineConfig } from 'vitest/config';

// `npm run bench:micro`: engine micro-benchmarks. They print timings and check only that the
// results are right; they live here, not in `npm test`, because timings are not tests.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['bench/micro/**/*.bench-test.ts'],
    testTimeout: 600_000,
    pool: 'forks',
  },
});
