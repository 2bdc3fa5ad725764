/**
 * The name offered for an export: the resource's title and what narrows it (the search words,
 * each filter with its values), as a person would name the file. The server cleans whatever
 * name is sent (deskstore_filename), so this only has to read well. Pure.
 */
import type { ViewState } from '../table/view-state';
import { isEmptyChoice, type FilterChoice } from '../table/filter-choice';

export interface NameWords {
  /** "(empty)" and "(not empty)" in the user's language. */
  readonly empty: string;
  readonly notEmpty: string;
}

const MAX_CHARS = 100;

function choiceText(choice: FilterChoice, words: NameWords): string {
  if (isEmptyChoice(choice)) return choice.deskstore_empty ? words.empty : words.notEmpty;
  return String(choice);
}

export function exportName(title: string, view: ViewState, words: NameWords): string {
  // a resource named after its file (`comuni.csv`) gives its name without the old extension
  const base = title.trim().replace(/\.(csv|tsv|txt|json)(\.gz)?$/i, '');
  const parts: string[] = [];
  if (view.q.trim()) parts.push(view.q.trim());
  for (const [column, choices] of Object.entries(view.filters)) {
    if (choices.length) parts.push(`${column} ${choices.map((c) => choiceText(c, words)).join('+')}`);
  }
  const name = parts.length ? `${base} (${parts.join(', ')})` : base;
  return [...name].length > MAX_CHARS ? `${[...name].slice(0, MAX_CHARS - 1).join('')}…` : name;
}
