import type { ImportProgress } from '../importer/import-types';
import type { ImportPhase } from '../../shared/wire/import';

const PHASES: Record<ImportPhase, string> = {
  reading: 'reading',
  typing: 'detecting types',
  storing: 'storing',
  indexing: 'indexing',
  writing: 'writing',
};

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Import progress for a terminal: one line rewritten in place on a TTY, a line every second
 * otherwise (logs, CI). Rows, bytes, rate, and the phase.
 */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): {
  update(p: ImportProgress): void;
  done(): void;
} {
  const started = performance.now();
  let last = 0;
  let lastPhase = '';
  let wrote = false;
  return {
    update(p) {
      const now = performance.now();
      if (now - last < (stream.isTTY ? 100 : 1000) && p.phase === lastPhase) return;
      last = now;
      lastPhase = p.phase;
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? Math.round(p.rows / seconds) : 0;
      const percent = p.totalBytes ? Math.min(100, Math.round((p.bytes / p.totalBytes) * 100)) : 0;
      const line =
        `${PHASES[p.phase]}: ${p.rows.toLocaleString('en')} rows, ${megabytes(p.bytes)} of ${megabytes(p.totalBytes)}` +
        ` (${percent}%), ${rate.toLocaleString('en')} rows/s, ${seconds.toFixed(1)} s`;
      if (stream.isTTY) stream.write(`\r\x1b[K${line}`);
      else stream.write(`${line}\n`);
      wrote = true;
    },
    done() {
      if (wrote && stream.isTTY) stream.write('\n');
    },
  };
}
