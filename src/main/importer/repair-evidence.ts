import { ColumnTypeInference } from './type-inference';
import { isBlankCell, parserFor, trimCell } from './value-parsers';

/**
 * Which value a surplus delimiter split, when the file says so (issue: a registry export with
 * `|` inside unquoted names). The evidence is the columns' types, learnt from the rows of the
 * file's start that have exactly the header's cell count: joining the cells back at position
 * p must leave every typed column (numbers, dates, booleans) holding a value of its type, and
 * the joined column must be text (a number never holds a delimiter). When several positions
 * pass, a delimiter with spaces around it (`Rossi | Bianchi`) picks the one whose joins all
 * have spaces; otherwise the evidence is not clear and nothing is joined.
 */
export class RepairEvidence {
  private constructor(
    private readonly fits: readonly ((text: string) => boolean)[],
    private readonly text: readonly boolean[],
  ) {}

  /** Learns each column's type from `records` with exactly `width` cells. */
  static learn(records: readonly (readonly string[])[], width: number, decimalComma: boolean): RepairEvidence | null {
    const rows = records.filter((r) => r.length === width);
    if (rows.length === 0) return null;
    const fits: ((text: string) => boolean)[] = [];
    const text: boolean[] = [];
    for (let c = 0; c < width; c++) {
      const inference = new ColumnTypeInference({ decimalComma });
      const seen = new Set<string>();
      for (const row of rows) {
        const cell = row[c]!;
        if (!seen.has(cell)) {
          seen.add(cell);
          inference.observe(cell);
        }
      }
      const inferred = inference.result();
      const isText = inferred.type === 'text';
      text.push(isText);
      if (isText) {
        fits.push(() => true);
        continue;
      }
      const parse = parserFor(inferred);
      fits.push((cell) => {
        if (isBlankCell(cell)) return true;
        try {
          parse(trimCell(cell));
          return true;
        } catch {
          return false;
        }
      });
    }
    return new RepairEvidence(fits, text);
  }

  /**
   * The position p where `cells[p..p+extra]` are one value split by `extra` delimiters, or
   * null when the evidence does not single one out.
   */
  explain(cells: readonly string[]): number | null {
    const width = this.fits.length;
    const extra = cells.length - width;
    if (extra <= 0) return null;
    const candidates: number[] = [];
    for (let p = 0; p < width; p++) {
      if (this.text[p] && this.othersFit(cells, p, extra)) candidates.push(p);
    }
    if (candidates.length === 1) return candidates[0]!;
    const spaced = candidates.filter((p) => joinsAreSpaced(cells, p, extra));
    return spaced.length === 1 ? spaced[0]! : null;
  }

  private othersFit(cells: readonly string[], p: number, extra: number): boolean {
    for (let c = 0; c < this.fits.length; c++) {
      if (c === p) continue;
      const cell = cells[c < p ? c : c + extra]!;
      if (!this.fits[c]!(cell)) return false;
    }
    return true;
  }
}

/** Every delimiter joined at p has a space or tab next to it. */
function joinsAreSpaced(cells: readonly string[], p: number, extra: number): boolean {
  for (let j = p; j < p + extra; j++) {
    const left = cells[j]!;
    const right = cells[j + 1]!;
    if (!/[ \t]$/.test(left) && !/^[ \t]/.test(right)) return false;
  }
  return true;
}
