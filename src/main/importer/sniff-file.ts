import { binaryFileProblem } from './file-source';
import type { HeaderColumn } from './header';
import type { ImportChoices } from './import-types';
import { sniffDialect, type DialectGuess } from './sniff-dialect';
import { decodeSample, detectEncoding, readSample } from './sniff-encoding';
import type { ImportType } from '../../shared/wire/import';

export interface SniffedFile {
  readonly sample: Buffer;
  readonly isWholeFile: boolean;
  readonly encoding: string;
  /** The sample decoded with `encoding`. */
  readonly text: string;
  readonly dialect: DialectGuess;
}

/**
 * What the preview and the import both decide from the start of a file: its encoding (unless
 * chosen), that it is text at all, then delimiter and preamble (unless chosen).
 */
export async function sniffFile(
  path: string,
  choices: Pick<ImportChoices, 'encoding' | 'delimiter' | 'skipLines'>,
  sampleBytes?: number,
): Promise<SniffedFile> {
  const { sample, isWholeFile } = await readSample(path, sampleBytes);
  const encoding = choices.encoding ?? detectEncoding(sample, isWholeFile).encoding;
  const binary = binaryFileProblem(sample, encoding);
  if (binary) throw binary;
  const text = decodeSample(sample, encoding, isWholeFile);
  const dialect = sniffDialect(text, {
    ...(choices.delimiter ? { delimiter: choices.delimiter } : {}),
    ...(choices.skipLines !== undefined ? { skipLines: choices.skipLines } : {}),
  });
  return { sample, isWholeFile, encoding, text, dialect };
}

/** The type the user forced on a column, named by its cleaned name or its original header. */
export function forcedTypeOf(types: Readonly<Record<string, ImportType>> | undefined, column: HeaderColumn): ImportType | undefined {
  return types?.[column.id] ?? types?.[column.label];
}
