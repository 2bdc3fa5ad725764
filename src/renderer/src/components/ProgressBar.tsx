interface Props {
  /** 0..1, or null for "working, amount unknown". */
  readonly fraction: number | null;
  readonly label: string;
  /** What a screen reader announces as the value, e.g. "42 %, 3,200 rows". */
  readonly valueText: string;
  /** The work stopped (cancelled, failed): the bar stays where it was, greyed. */
  readonly stopped?: boolean;
}

export function ProgressBar({ fraction, label, valueText, stopped = false }: Props) {
  const percent = fraction === null ? null : Math.round(fraction * 1000) / 10;
  return (
    <div
      className={stopped ? 'progress progress-stopped' : 'progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={valueText}
      data-testid="progress-bar"
    >
      <div
        className={fraction === null ? 'progress-fill progress-indeterminate' : 'progress-fill'}
        style={fraction === null ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
}
