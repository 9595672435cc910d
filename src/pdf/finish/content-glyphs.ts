/**
 * The glyphs a PDF's content streams show, per font, read by a small scanner of content-stream
 * syntax (the tokens of ../content-lexer.ts): the operators that set the font (Tf, and q/Q around
 * it) and those that show strings (Tj, TJ, ' and "). Everything else is skipped as tokens.
 *
 * It only answers for fonts whose codes are glyph ids: Type0 fonts with the Identity-H encoding
 * over a CIDFontType2 with an identity CIDToGIDMap and a FontFile2, which is how MuPDF's PDF
 * writer embeds every TrueType face. Anything it cannot account for exactly (another kind of font,
 * a string shown with no font set, an inline image, a font name its resources lack) makes the
 * whole answer undefined, so that the caller falls back to MuPDF's own subsetter.
 */

import { ContentLexer, Token } from '../content-lexer';

/** A font's glyph ids as its content shows them, and the dictionaries that embed that font file. */
export interface FontGlyphs {
  file: PdfObject;
  fonts: PdfObject[];
  gids: Set<number>;
}

/** The part of mupdf's PDFObject this uses (structural, so tests may use the real one). */
export interface PdfObject {
  /** A path of keys; mupdf's null object has no document, so chains go through one call. */
  get(...path: (string | number)[]): PdfObject;
  isNull(): boolean;
  isStream(): boolean;
  isArray(): boolean;
  isDictionary(): boolean;
  isIndirect(): boolean;
  asIndirect(): number;
  asName(): string;
  length: number;
  forEach(fn: (value: PdfObject, key: number | string) => void): void;
  readStream(): { asUint8Array(): Uint8Array; destroy(): void };
}

class Unaccountable extends Error {}

/** Glyphs per font file (by its object number), or undefined when some content cannot be accounted for. Streams in `skipStreams` (object numbers) are not read. */
export function contentGlyphs(pages: { contents: PdfObject; resources: PdfObject; annotations: PdfObject }[], skipStreams?: Set<number>): Map<number, FontGlyphs> | undefined {
  const usage = new Map<number, FontGlyphs>();
  const fontsSeen = new Map<number, FontGlyphs>();
  const scanned = new Set<number>();
  try {
    const scanStream = (stream: PdfObject, inherited: PdfObject) => {
      if (stream.isIndirect()) {
        if (scanned.has(stream.asIndirect())) return;
        scanned.add(stream.asIndirect());
      }
      const own = stream.get('Resources');
      const resources = own.isDictionary() ? own : inherited;
      scanResources(resources);
      scan(read(stream), resources);
    };
    // Every content stream the resources reach: forms (whether or not a Do shows them), soft masks' groups, tiling patterns.
    const scanResources = (resources: PdfObject) => {
      resources.get('XObject').forEach((x) => {
        if (x.isStream() && x.get('Subtype').asName() === 'Form') scanStream(x, resources);
      });
      resources.get('ExtGState').forEach((gs) => {
        const group = gs.get('SMask', 'G');
        if (group.isStream()) scanStream(group, resources);
      });
      resources.get('Pattern').forEach((p) => {
        if (p.isStream()) scanStream(p, resources);
      });
    };
    const scan = (bytes: Uint8Array, resources: PdfObject) => {
      scanContent(bytes, (name) => fontGlyphs(resources, name, usage, fontsSeen));
    };
    for (const page of pages) {
      if (!page.resources.isDictionary()) throw new Unaccountable();
      scanResources(page.resources);
      const parts = page.contents.isArray() ? Array.from({ length: page.contents.length }, (_, i) => page.contents.get(i)) : [page.contents];
      // A page's content streams are one stream for the syntax (a token may even cross them).
      const bytes = parts.filter((p) => p.isStream() && !(skipStreams && p.isIndirect() && skipStreams.has(p.asIndirect()))).map(read);
      scan(bytes.length === 1 ? bytes[0]! : joinWithSpaces(bytes), page.resources);
      page.annotations.forEach((annot) => {
        const normal = annot.get('AP', 'N');
        if (normal.isStream()) scanStream(normal, page.resources);
        else if (normal.isDictionary()) normal.forEach((state) => state.isStream() && scanStream(state, page.resources));
      });
    }
  } catch (e) {
    if (e instanceof Unaccountable) return undefined;
    throw e;
  }
  return usage;
}

function read(stream: PdfObject): Uint8Array {
  const buffer = stream.readStream();
  const bytes = buffer.asUint8Array().slice();
  buffer.destroy();
  return bytes;
}

function joinWithSpaces(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    out[at + p.length] = 0x20;
    at += p.length + 1;
  }
  return out;
}

/** The glyph set of the font a Tf names in these resources (fonts already resolved are found by object number). */
function fontGlyphs(resources: PdfObject, name: string, usage: Map<number, FontGlyphs>, seen: Map<number, FontGlyphs>): Set<number> {
  const font = resources.get('Font', name);
  if (!font.isIndirect()) throw new Unaccountable();
  const known = seen.get(font.asIndirect());
  if (known) return known.gids;
  const toGid = font.get('DescendantFonts', 0, 'CIDToGIDMap');
  const file = font.get('DescendantFonts', 0, 'FontDescriptor', 'FontFile2');
  const identity =
    font.get('Subtype').asName() === 'Type0' &&
    font.get('Encoding').asName() === 'Identity-H' &&
    font.get('DescendantFonts', 0, 'Subtype').asName() === 'CIDFontType2' &&
    (toGid.isNull() || toGid.asName() === 'Identity') &&
    file.isStream() &&
    file.isIndirect();
  if (!identity) throw new Unaccountable();
  let entry = usage.get(file.asIndirect());
  if (!entry) usage.set(file.asIndirect(), (entry = { file, fonts: [], gids: new Set() }));
  entry.fonts.push(font);
  seen.set(font.asIndirect(), entry);
  return entry.gids;
}

const enum Op {
  Other,
  Tf,
  Show, // Tj, ', "
  ShowArray, // TJ
  Save,
  Restore,
  InlineImage,
}

function operator(bytes: Uint8Array, start: number, end: number): Op {
  const n = end - start;
  const a = bytes[start]!;
  if (n === 1) return a === 0x71 /* q */ ? Op.Save : a === 0x51 /* Q */ ? Op.Restore : a === 0x27 || a === 0x22 ? Op.Show : Op.Other;
  if (n !== 2) return Op.Other;
  const b = bytes[start + 1]!;
  if (a === 0x54 /* T */) return b === 0x66 /* f */ ? Op.Tf : b === 0x6a /* j */ ? Op.Show : b === 0x4a /* J */ ? Op.ShowArray : Op.Other;
  if (a === 0x42 /* B */ && b === 0x49 /* I */) return Op.InlineImage;
  return Op.Other;
}

/**
 * Walks the content's tokens, telling `fontNamed` each font a Tf selects and adding every shown
 * 2-byte code to that font's glyph set. Operands that matter are kept: the last name (Tf's font),
 * and the strings since the last operator (or inside the current array, for TJ).
 */
export function scanContent(bytes: Uint8Array, fontNamed: (name: string) => Set<number>): void {
  const lexer = new ContentLexer(bytes);
  let font: Set<number> | undefined;
  const saved: (Set<number> | undefined)[] = [];
  let lastName = '';
  // The 2-byte codes of the strings since the last operator (Identity-H: each one a glyph id).
  const codes: number[] = [];
  let depth = 0; // array nesting
  for (let token = lexer.next(); token !== Token.End; token = lexer.next()) {
    switch (token) {
      case Token.LiteralString:
        lexer.pos = literalString(bytes, lexer.pos, codes);
        break;
      case Token.HexString:
        lexer.pos = hexString(bytes, lexer.pos, codes);
        break;
      case Token.ArrayOpen:
        depth++;
        break;
      case Token.ArrayClose:
        depth = Math.max(0, depth - 1);
        break;
      case Token.Name:
        lastName = nameOf(bytes, lexer.start, lexer.end);
        break;
      case Token.Operator:
        if (depth > 0) break;
        switch (operator(bytes, lexer.start, lexer.end)) {
          case Op.Tf:
            font = fontNamed(lastName);
            break;
          case Op.Save:
            saved.push(font);
            break;
          case Op.Restore:
            if (saved.length) font = saved.pop();
            break;
          case Op.Show:
          case Op.ShowArray:
            if (codes.length) {
              if (!font) throw new Unaccountable();
              for (const code of codes) font.add(code);
            }
            break;
          case Op.InlineImage:
            throw new Unaccountable(); // binary data the scanner would read as tokens
        }
        codes.length = 0;
    }
  }
}

function nameOf(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let k = start; k < end; k++) {
    const c = bytes[k]!;
    if (c === 0x23 /* # */ && k + 2 < end + 1) {
      const code = parseInt(String.fromCharCode(bytes[k + 1]!, bytes[k + 2]!), 16);
      if (!Number.isNaN(code)) {
        s += String.fromCharCode(code);
        k += 2;
        continue;
      }
    }
    s += String.fromCharCode(c);
  }
  return s;
}

const hexValue = (c: number) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1);

/** Adds a hex string's 2-byte codes (from just after '<') to `codes`; returns where scanning goes on. */
function hexString(bytes: Uint8Array, start: number, codes: number[]): number {
  let code = 0;
  let digits = 0;
  let i = start;
  for (; i < bytes.length && bytes[i] !== 0x3e; i++) {
    const v = hexValue(bytes[i]!);
    if (v < 0) continue; // whitespace
    code = (code << 4) | v;
    if (++digits === 4) {
      codes.push(code);
      code = 0;
      digits = 0;
    }
  }
  if (digits === 3) codes.push((code << 4) & 0xffff); // an odd last digit is followed by 0; a lone last byte is no code
  return i + 1;
}

/** Adds a literal string's 2-byte codes (from just after '('; escapes and nested parentheses read) to `codes`; returns where scanning goes on. */
function literalString(bytes: Uint8Array, start: number, codes: number[]): number {
  const out: number[] = [];
  let nesting = 1;
  let i = start;
  while (i < bytes.length) {
    const c = bytes[i++]!;
    if (c === 0x5c /* \ */) {
      const e = bytes[i++];
      if (e === undefined) break;
      if (e >= 0x30 && e <= 0x37) {
        let v = e - 0x30;
        for (let k = 0; k < 2 && bytes[i]! >= 0x30 && bytes[i]! <= 0x37; k++) v = v * 8 + bytes[i++]! - 0x30;
        out.push(v & 0xff);
      } else if (e === 0x0d) {
        if (bytes[i] === 0x0a) i++; // a line continuation
      } else if (e !== 0x0a) {
        out.push(({ 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12 } as Record<number, number>)[e] ?? e);
      }
      continue;
    }
    if (c === 0x28) nesting++;
    else if (c === 0x29 && --nesting === 0) break;
    out.push(c);
  }
  for (let k = 0; k + 1 < out.length; k += 2) codes.push((out[k]! << 8) | out[k + 1]!);
  return i;
}
