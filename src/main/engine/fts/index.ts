// Full-text search for the DataStore engine: PostgreSQL-compatible text search configurations
// and tsquery, plus an in-memory inverted index (see the individual modules for details).
//
// Intended wiring:
//   import:  builder = new PostingsBuilder(); per row (ascending _id):
//              builder.addRowLexemes(_id, documentLexemes(rowText, 'english'))
//              (or internLexeme + addRow with cached term ids); index = builder.finish()
//            fast path: interner = new TermInterner('english', builder); per row:
//              ids.length = 0; documentTermIds(rowText, 'english', interner, ids); builder.addRow(_id, ids)
//            two cores: build rows 1..m and m+1..n separately, mergeDisjointIndexes(first, second)
//   persist: encodeIndex(index) -> meta + buffers; decodeIndex(meta, buffers) on load
//   writes:  live = new MutableTextIndex(index); addRow(_id, lexemes) / removeRow(_id);
//            compact() now and then (returns the new base to persist)
//   search:  query = plain ? plainToTsQuery(q, lang) : parseTsQuery(q, lang)  (throws
//              TsQuerySyntaxError -> 409 "Invalid query")
//            { candidates, verify } = evaluateQuery(query, live, universe)
//            rows in `verify` match only if matchesPhrase(query, doc.lexemes, doc.positions)
//              with doc = tokenizeDocument(rowText, 'english')
//            rank = rankRows(query, live, matchingRows)

export {
  type TextSearchLanguage,
  TEXT_SEARCH_LANGUAGES,
  isTextSearchLanguage,
  documentLexemes,
  tokenizeDocument,
  plainQueryLexemes,
  tokenLexemes,
  type TokenLexeme,
  type AnalyzedDocument,
  documentTermIds,
  TermInterner,
  type LexemeInterner,
} from './text-search-config';
export {
  type TsQuery,
  TsQuerySyntaxError,
  plainToTsQuery,
  parseTsQuery,
  queryHasPhrase,
  tsQueryToString,
  MAX_QUERY_LENGTH,
  MAX_PLAIN_QUERY_LENGTH,
  MAX_QUERY_DEPTH,
} from './tsquery';
export { mergePostings, type PostingList, type TextIndexReader, type RowUniverse } from './text-index-reader';
export { InvertedIndex } from './inverted-index';
export { lowerBound } from './lexeme-sort';
export { mergeDisjointIndexes } from './merge-indexes';
export { PostingsBuilder, type PostingsBuilderOptions } from './postings-builder';
export { encodeIndex, decodeIndex, openIndex, IndexFormatError, type EncodedIndexMeta, INDEX_FORMAT, INDEX_FORMAT_VERSION } from './index-codec';
export { evaluate, evaluateQuery, type QueryEvaluation } from './query-eval';
export { matchesPhrase } from './phrase-match';
export { rankRows } from './rank';
export { MutableTextIndex } from './mutable-text-index';
export { parseTokens, type ParsedToken } from './tokenizer';
