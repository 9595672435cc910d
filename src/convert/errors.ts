import { ZipError } from '../codecs/zip-directory';
import { XmlError } from '../codecs/xml';

/**
 * Why a Word document cannot be converted. The converter is pure (bytes → bytes) and knows nothing of
 * tasks; the operation maps these to task failures with messages a person can act on.
 */
export type ConversionProblem =
  /** Password-protected (OOXML in an encrypted OLE container, or a .doc with fEncrypted). */
  | 'password'
  /** Truncated or damaged archive/compound file, or required parts missing. */
  | 'corrupt'
  /** Not a Word document at all (for example an .xls, or a .doc that is really RTF we cannot read). */
  | 'not_word'
  /** A Word format this converter does not read (Word 2.0, Word for DOS...). */
  | 'unsupported';

/**
 * Whether a reader's error means the file is damaged: a zip entry that does not inflate, XML that
 * does not parse, a record that points outside its stream (doc/binary.ts throws RangeError there).
 * Any other error is ours, not the file's (a TypeError in a reader), and must not be reported to
 * the user as damage.
 */
export function signalsDamage(err: unknown): boolean {
  if (err instanceof ZipError || err instanceof XmlError) return true;
  // "Maximum call stack size exceeded" is a RangeError too: exhaustion, not damage.
  return err instanceof RangeError && !/call stack/i.test(err.message);
}

export class ConversionError extends Error {
  constructor(
    readonly problem: ConversionProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ConversionError';
  }
}
