/**
 * What a value filter can hold for a column: values picked from its distinct values, and the
 * two blank choices, "(empty)" (NULL, or '' in a text column) and "(not empty)". CKAN's
 * `filters` cannot say "is empty", so those travel as Deskstore's operator object
 * `{"deskstore_empty": true|false}` inside the column's list (CKAN 2.12's mixed-list syntax:
 * any item matches). The route keeps the same JSON as the API, so a copied link and the API
 * panel show one form. Pure.
 */
export type FilterValue = string | number | boolean;
export interface EmptyChoice {
  readonly deskstore_empty: boolean;
}
export type FilterChoice = FilterValue | EmptyChoice;

export const EMPTY: EmptyChoice = { deskstore_empty: true };
export const NOT_EMPTY: EmptyChoice = { deskstore_empty: false };

export function isEmptyChoice(choice: unknown): choice is EmptyChoice {
  return (
    typeof choice === 'object' &&
    choice !== null &&
    !Array.isArray(choice) &&
    Object.keys(choice).length === 1 &&
    typeof (choice as EmptyChoice).deskstore_empty === 'boolean'
  );
}

export function isFilterChoice(choice: unknown): choice is FilterChoice {
  return typeof choice === 'string' || typeof choice === 'number' || typeof choice === 'boolean' || isEmptyChoice(choice);
}

export function sameChoice(a: FilterChoice, b: FilterChoice): boolean {
  if (isEmptyChoice(a) || isEmptyChoice(b)) return isEmptyChoice(a) && isEmptyChoice(b) && a.deskstore_empty === b.deskstore_empty;
  return a === b;
}

/**
 * Toggles one choice. "(not empty)" stands alone (any value is not empty, so values beside it
 * say nothing); picking a value or "(empty)" drops it, picking it drops the rest.
 */
export function toggleChoice(selected: readonly FilterChoice[], choice: FilterChoice): FilterChoice[] {
  if (selected.some((s) => sameChoice(s, choice))) return selected.filter((s) => !sameChoice(s, choice));
  if (sameChoice(choice, NOT_EMPTY)) return [NOT_EMPTY];
  return [...selected.filter((s) => !sameChoice(s, NOT_EMPTY)), choice];
}
