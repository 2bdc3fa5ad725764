// Search as you type (`deskstore_q`, what the UI's search box sends) on the benchmark table:
// the keystrokes of a few words, each next to `q` for the finished word asked in the same run
// (the baseline), with the p50 target the search box needs to feel immediate.
import { timeEach } from './http-client.js';

const TARGET_P50_MS = 50;

/** Every keystroke from three letters on: `ser`, `serv`, … `servizio`. */
function keystrokes(word) {
  return Array.from({ length: word.length - 2 }, (_, i) => word.slice(0, i + 3));
}

export async function typeaheadLatency(c, search, stats, rareWords) {
  const common = ['servizio', 'manutenzione', 'città', 'citta', 'viabilità'];
  const typed = [...common, ...rareWords.slice(0, 20)].flatMap(keystrokes);
  const twoWords = common.flatMap((w, i) => keystrokes(common[(i + 1) % common.length]).map((k) => `${w} ${k}`));
  const baseline = stats(
    'q, finished words (baseline)',
    await timeEach(
      c,
      [...common, ...rareWords.slice(0, 20)].map((q) => search({ q })),
    ),
  );
  const single = stats(
    'deskstore_q, each keystroke of a word',
    await timeEach(
      c,
      typed.map((t) => search({ deskstore_q: t })),
    ),
    TARGET_P50_MS,
  );
  const double = stats(
    'deskstore_q, second word being typed',
    await timeEach(
      c,
      twoWords.map((t) => search({ deskstore_q: t })),
    ),
    TARGET_P50_MS,
  );
  for (const s of [single, double]) s.label = `${s.label} (${(s.p50 / baseline.p50).toFixed(1)}× baseline)`;
  return [baseline, single, double];
}
