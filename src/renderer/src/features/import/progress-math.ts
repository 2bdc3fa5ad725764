/**
 * Turns the polled import status into what the progress bar shows: one fraction over all
 * phases (reading the file is most of the work; the later phases are short steps), the rate
 * in rows per second over the last few seconds, and the time left while reading. Pure.
 */
import type { ImportJobStatus, JobPhase } from '../../../../shared/wire/import';

export interface ProgressSample {
  /** ms (performance.now or Date.now, consistently). */
  readonly at: number;
  readonly rows: number;
  readonly bytes: number;
}

export interface ProgressView {
  readonly fraction: number;
  readonly rows: number;
  readonly rowsPerSecond: number | null;
  readonly secondsLeft: number | null;
  readonly phase: JobPhase;
  readonly finished: boolean;
  /** The rows can already be searched (the DataStore table is active). */
  readonly searchable: boolean;
  /** Cancelled or failed: the bar stays where the import stopped and nothing counts as done. */
  readonly stopped: boolean;
  /** The step the import was in when it stopped (null: not known, or not stopped). */
  readonly stoppedIn: JobPhase | null;
}

const READING_SHARE = 0.8;
const PHASE_START: Record<JobPhase, number> = {
  queued: 0,
  downloading: 0,
  reading: 0,
  typing: 0.8,
  indexing: 0.85,
  writing: 0.9,
  storing: 0.96,
  done: 1,
};
const RATE_WINDOW_MS = 3000;

export function addSample(samples: readonly ProgressSample[], sample: ProgressSample): ProgressSample[] {
  const kept = samples.filter((s) => sample.at - s.at <= RATE_WINDOW_MS * 2);
  return [...kept, sample];
}

function rate(samples: readonly ProgressSample[], key: 'rows' | 'bytes'): number | null {
  if (samples.length < 2) return null;
  const last = samples[samples.length - 1]!;
  const window = samples.filter((s) => last.at - s.at <= RATE_WINDOW_MS);
  const first = window.length >= 2 ? window[0]! : samples[samples.length - 2]!;
  const seconds = (last.at - first.at) / 1000;
  if (seconds <= 0.05) return null;
  const delta = last[key] - first[key];
  return delta > 0 ? delta / seconds : null;
}

/** The job has ended, one way or another: nothing more to poll. */
export function isFinished(status: ImportJobStatus): boolean {
  return status.status === 'complete' || status.status === 'error' || status.status === 'cancelled';
}

/**
 * @param lastActive the last status seen while the job ran: a cancelled or failed job reports
 * phase `done`, and its bar must show where it stopped, not a full bar.
 */
export function importProgress(
  status: ImportJobStatus,
  samples: readonly ProgressSample[],
  lastActive: ImportJobStatus | null = null,
): ProgressView {
  if (status.status === 'cancelled' || status.status === 'error') {
    const before = lastActive && !isFinished(lastActive) ? importProgress(lastActive, []) : null;
    return {
      fraction: before?.fraction ?? 0,
      rows: status.rows_done,
      rowsPerSecond: null,
      secondsLeft: null,
      phase: status.phase,
      finished: true,
      searchable: false,
      stopped: true,
      stoppedIn: before?.phase ?? null,
    };
  }
  const finished = isFinished(status);
  const phase = status.phase;
  let fraction: number;
  if (status.status === 'complete') fraction = 1;
  else if (phase === 'reading' || phase === 'downloading' || phase === 'queued') {
    fraction = status.bytes_total > 0 ? (status.bytes_done / status.bytes_total) * READING_SHARE : 0;
  } else fraction = PHASE_START[phase];
  const rowsPerSecond = rate(samples, 'rows');
  const bytesPerSecond = rate(samples, 'bytes');
  const reading = phase === 'reading' || phase === 'downloading';
  const secondsLeft =
    !finished && reading && bytesPerSecond && status.bytes_total > 0
      ? Math.max(0, status.bytes_total - status.bytes_done) / bytesPerSecond
      : null;
  const searchable = status.status === 'complete' || phase === 'storing' || phase === 'done';
  return {
    fraction: Math.max(0, Math.min(1, fraction)),
    rows: status.rows_done,
    rowsPerSecond,
    secondsLeft,
    phase,
    finished,
    searchable,
    stopped: false,
    stoppedIn: null,
  };
}
