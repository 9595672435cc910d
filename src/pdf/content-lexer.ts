/**
 * The tokens of PDF content-stream syntax (PDF 32000 7.2, 7.8.2), read from the bytes in place: one
 * lexer for the readers that walk content streams without MuPDF, the page budget's (content-cost.ts)
 * and the font subsetter's (finish/content-glyphs.ts). It tells what comes next and where; what a
 * token means is the reader's. Strings are left for the reader to decode or skip: the subsetter
 * reads their glyph codes in the same pass as it finds their end, the budget only counts their bytes.
 *
 * Written for speed, the subsetter scanning every page of every Word document: a char-class table,
 * positions rather than token strings, and no allocation per token.
 */

export const enum Token {
  End,
  /** A name: its bytes (after the '/', #xx escapes unread) are [start, end). */
  Name,
  /** A number (a regular token starting with a digit, '+', '-' or '.'): [start, end). */
  Number,
  /** An operator (any other regular token): [start, end). */
  Operator,
  /** A literal string: `pos` is just after its '('; the reader moves it past the string (skipLiteralString, or its own decoder). */
  LiteralString,
  /** A hex string: `pos` is just after its '<'; the reader moves it past the '>' (skipHexString, or its own decoder). */
  HexString,
  ArrayOpen,
  ArrayClose,
}

// Character classes (PDF 32000 7.2.2): whitespace, delimiters, and the regular characters of names, numbers and operators.
const WHITE = 1;
const DELIMITER = 2;
const CLASS = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) CLASS[c] = WHITE;
for (const c of '()<>[]{}/%') CLASS[c.charCodeAt(0)] = DELIMITER;

/** Whether byte `c` is content-stream whitespace (NUL, tab, line feed, form feed, carriage return, space). */
export const isWhite = (c: number): boolean => CLASS[c] === WHITE;

/**
 * Dictionary brackets (<< >>, as in BDC's properties) and braces are skipped: their contents are
 * tokens like any other. So is a stray ')'. Comments are skipped to the end of their line.
 */
export class ContentLexer {
  /** Where reading goes on. */
  pos = 0;
  /** The last Name, Number or Operator token's bytes: [start, end). */
  start = 0;
  end = 0;

  constructor(readonly bytes: Uint8Array) {}

  next(): Token {
    const b = this.bytes;
    const n = b.length;
    let i = this.pos;
    while (i < n) {
      const c = b[i]!;
      const kind = CLASS[c]!;
      if (kind === WHITE) {
        i++;
        continue;
      }
      if (kind === 0) {
        let j = i + 1;
        while (j < n && CLASS[b[j]!] === 0) j++;
        this.start = i;
        this.end = this.pos = j;
        return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e ? Token.Number : Token.Operator;
      }
      switch (c) {
        case 0x2f /* / */: {
          let j = i + 1;
          while (j < n && CLASS[b[j]!] === 0) j++;
          this.start = i + 1;
          this.end = this.pos = j;
          return Token.Name;
        }
        case 0x28 /* ( */:
          this.pos = i + 1;
          return Token.LiteralString;
        case 0x3c /* < */:
          if (b[i + 1] === 0x3c) {
            i += 2;
            continue;
          }
          this.pos = i + 1;
          return Token.HexString;
        case 0x5b /* [ */:
          this.pos = i + 1;
          return Token.ArrayOpen;
        case 0x5d /* ] */:
          this.pos = i + 1;
          return Token.ArrayClose;
        case 0x25 /* % */:
          while (i < n && b[i] !== 10 && b[i] !== 13) i++;
          continue;
        default: // > { } )
          i++;
      }
    }
    this.pos = i;
    return Token.End;
  }

  /** Past a literal string's closing parenthesis (nested ones and escapes counted), from `pos` just after its '('. */
  skipLiteralString(): void {
    const b = this.bytes;
    let i = this.pos;
    for (let depth = 1; i < b.length && depth > 0; i++) {
      const c = b[i];
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x28) depth++;
      else if (c === 0x29) depth--;
    }
    this.pos = i;
  }

  /** Past a hex string's '>', from `pos` just after its '<'. */
  skipHexString(): void {
    const b = this.bytes;
    let i = this.pos;
    while (i < b.length && b[i] !== 0x3e) i++;
    this.pos = i + 1;
  }

  /** Past an inline image's data (ID … EI), from `pos` just after its BI. */
  skipInlineImage(): void {
    const b = this.bytes;
    let i = this.pos;
    for (; i + 1 < b.length; i++) if (b[i] === 0x49 && b[i + 1] === 0x44 && isWhite(b[i + 2] ?? 32)) break; // ID
    for (i += 3; i + 2 < b.length; i++) {
      if (isWhite(b[i]!) && b[i + 1] === 0x45 && b[i + 2] === 0x49 && (i + 3 >= b.length || isWhite(b[i + 3]!))) {
        this.pos = i + 3; // EI
        return;
      }
    }
    this.pos = b.length;
  }
}
