/**
 * Lower case without accents (`Città` → `citta`, `Števerjan` → `steverjan`): how "contains"
 * searches over facet values, the catalogue and dataset names compare text.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}
