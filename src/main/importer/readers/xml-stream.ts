import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { message } from '../../../shared/messages';
import { ImportInputError } from '../import-errors';

/**
 * Streams an XML part of a zip through saxes (a maintained, non-validating SAX parser that
 * resolves no external entities and loads no DTD), calling back for each element and its text.
 * `onOpen` may return false to stop reading (a sheet's first value was all that was needed).
 */
export interface XmlHandlers {
  onOpen?(tag: SaxesTagPlain): boolean | void;
  onText?(text: string): void;
  onClose?(tag: SaxesTagPlain): boolean | void;
}

class Stop extends Error {}

export async function streamXml(source: Readable, handlers: XmlHandlers): Promise<void> {
  const parser = new SaxesParser({ xmlns: false });
  let failure: Error | null = null;
  // saxes's own words (`1:68: undefined entity.`) as the detail of a coded message.
  parser.on('error', (err) => {
    failure ??= new ImportInputError(
      message('import.refused.bad_xml', `This file's XML cannot be read (${err.message})`, { reason: err.message }),
    );
  });
  parser.on('opentag', (tag) => {
    if (handlers.onOpen?.(tag) === false) throw new Stop();
  });
  if (handlers.onText) parser.on('text', handlers.onText);
  if (handlers.onClose) {
    parser.on('closetag', (tag) => {
      if (handlers.onClose!(tag) === false) throw new Stop();
    });
  }
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of source) {
      parser.write(decoder.decode(chunk as Buffer, { stream: true }));
      if (failure) throw failure;
    }
    parser.write(decoder.decode()).close();
    if (failure) throw failure;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  } finally {
    source.destroy();
  }
}

/** An attribute's value by its qualified name. */
export function attr(tag: SaxesTagPlain, name: string): string | undefined {
  const value = tag.attributes[name];
  return typeof value === 'string' ? value : undefined;
}
