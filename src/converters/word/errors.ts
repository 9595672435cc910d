/**
 * Why a Word document cannot be converted. The converter is pure (bytes → bytes) and knows nothing of
 * tasks; the operation maps these to task failures with messages a person can act on.
 */
export type WordProblem =
  /** Password-protected (OOXML in an encrypted OLE container, or a .doc with fEncrypted). */
  | 'password'
  /** Truncated or damaged archive/compound file, or required parts missing. */
  | 'corrupt'
  /** Not a Word document at all (for example an .xls, or a .doc that is really RTF we cannot read). */
  | 'not_word'
  /** A Word format this converter does not read (Word 2.0, Word for DOS...). */
  | 'unsupported';

export class WordConversionError extends Error {
  constructor(
    readonly problem: WordProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WordConversionError';
  }
}
