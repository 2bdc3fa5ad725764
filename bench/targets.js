// The performance targets of issue 14, each printed with the figure measured in this run and
// PASS or MISS. A target compares a figure with a limit; where a baseline exists (sqlite3's
// .import, the 1M-row figures for the 5M-row ones) the figure is already a ratio to it.

/** One target: `value` against `limit` (at most, unless `atLeast`), shown with `unit`. */
export function target(label, value, limit, unit, { atLeast = false, note = '' } = {}) {
  const measured = typeof value === 'number' && Number.isFinite(value);
  const pass = measured && (atLeast ? value >= limit : value <= limit);
  return { label, value: measured ? value : null, limit, unit, atLeast, note, pass };
}

const format = (x, unit) => {
  if (x === null) return 'not measured';
  if (unit === '×') return `${x.toFixed(2)}×`;
  if (unit === 's') return `${x.toFixed(2)} s`;
  if (unit === 'ms') return `${x.toFixed(1)} ms`;
  if (unit === 'MB') return `${x.toFixed(0)} MB`;
  return `${x}${unit ? ` ${unit}` : ''}`;
};

export function printTargets(title, targets) {
  const width = Math.max(...targets.map((t) => t.label.length));
  const lines = [title];
  for (const t of targets) {
    const limit = `${t.atLeast ? '≥' : '≤'} ${format(t.limit, t.unit)}`;
    lines.push(
      `  ${t.pass ? 'PASS' : 'MISS'}  ${t.label.padEnd(width)}  ${format(t.value, t.unit).padStart(12)}  (target ${limit})${t.note ? `  ${t.note}` : ''}`,
    );
  }
  const passed = targets.filter((t) => t.pass).length;
  lines.push(`  ${passed} of ${targets.length} targets met`);
  return lines.join('\n');
}

/** VmRSS (now) and VmHWM (peak) of a process, in MB. */
export function processMemoryMb(pid, readFile) {
  const status = readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)[1]) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}
