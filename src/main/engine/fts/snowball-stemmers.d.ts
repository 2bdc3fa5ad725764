// Minimal typings for the `snowball-stemmers` package (a JS port of the Snowball stemmers,
// https://github.com/mazko/jssnowball). The package ships no types of its own.
declare module 'snowball-stemmers' {
  export interface SnowballStemmer {
    /** Stems one word. The word must already be lower-cased; the stemmer does not fold case. */
    stem(word: string): string;
  }
  export function newStemmer(algorithm: string): SnowballStemmer;
  export function algorithms(): string[];
}
