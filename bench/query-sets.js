// Query sets asked once per variant ("cold"): every two-word q and every two-column filter is
// new to the server, so no cache answers it. Shared by the 1M-row run and the --big runs, whose
// figures are compared.
import { CATEGORIE, REGIONI, WORDS } from './generate.js';

export function coldTwoWordQueries(count) {
  const pairs = [];
  for (let a = 40; a < WORDS.length && pairs.length < count; a += 3) pairs.push(`${WORDS[a]} ${WORDS[(a * 7) % WORDS.length]}`);
  return pairs;
}

export function coldTwoColumnFilters(count) {
  const combos = [];
  for (let i = 0; combos.length < count; i++)
    combos.push({ regione: REGIONI[i % 20], categoria: CATEGORIE[Math.floor(i / 20) % CATEGORIE.length] });
  return combos;
}
