// Full-text search for the DataStore engine: PostgreSQL-compatible text search configurations
// and tsquery, plus an in-memory inverted index (see the individual modules for details).

export {
  type TextSearchLanguage, TEXT_SEARCH_LANGUAGES, isTextSearchLanguage, documentLexemes, tokenizeDocument,
  plainQueryLexemes, type AnalyzedDocument, MAX_POSITION,
} from './text-search-config';
export {
  type TsQuery, TsQuerySyntaxError, plainToTsQuery, parseTsQuery, queryHasPhrase, tsQueryToString,
  MAX_QUERY_LENGTH, MAX_PLAIN_QUERY_LENGTH, MAX_QUERY_DEPTH,
} from './tsquery';
export { type PostingList, type TextIndexReader, type RowUniverse } from './text-index-reader';
export { InvertedIndex } from './inverted-index';
export { PostingsBuilder } from './postings-builder';
export { encodeIndex, decodeIndex, IndexFormatError, type EncodedIndexMeta, INDEX_FORMAT, INDEX_FORMAT_VERSION } from './index-codec';
export { evaluate, evaluateQuery, type QueryEvaluation } from './query-eval';
export { matchesPhrase, matchesDocument } from './phrase-match';
export { rankRows } from './rank';
export { MutableTextIndex } from './mutable-text-index';
export { parseTokens, type ParsedToken } from './tokenizer';
