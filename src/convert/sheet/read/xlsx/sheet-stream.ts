/**
 * A large worksheet part read as it inflates (zip-directory.ts readZipEntryPieces), so neither its
 * bytes nor its text are ever held whole: the XML is cut between rows, each run of whole rows
 * parsed on its own and its rows handed over, and what lies before and after <sheetData> (column
 * widths, merges, page setup, header and footer, drawing) kept and parsed as the worksheet's
 * settings. A 60 MB sheet part took its 60 MB of bytes and 60 MB of text beside the cells.
 */
import { parseXml, type XmlElement, type XmlStream } from '../../../../codecs/xml';

/** Where a worksheet's XML comes from: whole, or in pieces as it inflates. */
export type WorksheetSource = Uint8Array | { pieces(onPiece: (piece: Uint8Array) => void): void };

/** The start tag of a list element (sheetData, commentList…), its prefix caught, and whether it is empty. */
const listTag = (name: string) => new RegExp(`<([\\w.-]+:)?${name}(?:\\s[^>]*?)?(\\/?)>`);

/** The start of the last item tag in `text` (-1: none) at or after `from`, an item's start being where the items before it are complete. */
function lastItemStart(text: string, tags: readonly string[], from = 0): number {
  let last = -1;
  for (const tag of tags) {
    // (lastIndexOf from -1 searches from 0 again: the walk stops at the start.)
    for (let at = text.lastIndexOf(tag); at >= from && at > last; at = at > 0 ? text.lastIndexOf(tag, at - 1) : -1) {
      const next = text.charCodeAt(at + tag.length);
      if (next === 32 || next === 62 || next === 47 || next === 9 || next === 10 || next === 13) {
        last = at;
        break;
      }
    }
  }
  return last;
}

/** The namespace declarations in `text` (the part's root and the list's start tag): each run of items is parsed with them, so that r:id stays r:id. */
const declarations = (text: string): string => (text.match(/\sxmlns(?::[\w.-]+)?\s*=\s*("[^"]*"|'[^']*')/g) ?? []).join('');

/**
 * UTF-8 pieces as text, each cut at its last whole character (the rest waits for the next piece)
 * and decoded on its own: a streaming TextDecoder gives two-byte strings even for ASCII, twice
 * the memory of the one-byte strings a whole decode gives.
 */
function pieceDecoder(): { text(piece: Uint8Array): string; end(): string } {
  const decoder = new TextDecoder();
  let rest = new Uint8Array(0);
  return {
    text(piece) {
      let bytes = piece;
      if (rest.length) (bytes = new Uint8Array(rest.length + piece.length)).set(rest), bytes.set(piece, rest.length);
      // Back over continuation bytes (10xxxxxx) to the last lead byte: its character waits when it is not whole.
      let lead = bytes.length - 1;
      while (lead > 0 && bytes.length - lead < 4 && (bytes[lead]! & 0xc0) === 0x80) lead--;
      const b = bytes[lead] ?? 0;
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      const cut = lead >= 0 && bytes.length - lead < need ? lead : bytes.length;
      rest = bytes.slice(cut);
      return decoder.decode(bytes.subarray(0, cut));
    },
    end: () => (rest.length ? decoder.decode(rest) : ''),
  };
}

/**
 * Text held as the pieces it came in, cut at positions counted from its start: not one string
 * grown piece by piece, which V8 flattens into a copy of the whole at the first search or slice
 * (an item of 47 MB was then held three times over).
 */
class Pieces {
  private parts: string[] = [];
  length = 0;

  push(text: string): void {
    if (text) this.parts.push(text), (this.length += text.length);
  }

  /** The text before `pos`, as the pieces it lies in (the one across `pos` split); the rest stays. */
  take(pos: number): string[] {
    const out: string[] = [];
    let left = Math.min(pos, this.length);
    this.length -= left;
    while (left > 0) {
      const part = this.parts[0]!;
      if (part.length <= left) out.push(this.parts.shift()!), (left -= part.length);
      else out.push(part.slice(0, left)), (this.parts[0] = part.slice(left)), (left = 0);
    }
    return out;
  }
}

/**
 * A part whose one list element (`list`: sheetData, commentList, wsDr) holds many items (`items`:
 * row, comment, the anchors; in the list's prefix unless `itemTag` names it): the part without the
 * items, each item handed to `onItem` as its run is parsed.
 */
export function streamedList(source: { pieces(onPiece: (piece: Uint8Array) => void): void }, list: string, items: string | readonly string[], onItem: (el: XmlElement) => void, itemTag?: string, deeper?: XmlStream['deeper']): XmlElement | undefined {
  const names = new Set(typeof items === 'string' ? [items] : items);
  const decoder = pieceDecoder();
  const start = listTag(list);
  let state = 'head' as 'head' | 'items' | 'tail';
  let head = '';
  let tail = '';
  let tags = [itemTag ?? `<${[...names][0]}`];
  let end = `</${list}>`;
  let open = `<${list}>`;
  const buffer = new Pieces();
  const parseItems = (run: string[]) => {
    if (!run.some((p) => /\S/.test(p))) return;
    const text = [open, ...run, `</${list}>`].join('');
    // The pieces go as soon as they are one string: a run of one 47 MB item is then held once, not twice.
    run.length = 0;
    parseXml(text, { depth: 2, element: (el) => (names.has(el.name) ? (onItem(el), false) : true), ...(deeper ? { deeper } : {}) });
  };
  // The end tag and item starts are looked for only in what came since the last look, and the few characters before it a tag may straddle.
  let carry = '';
  const itemsIn = (text: string) => {
    buffer.push(text);
    const window = carry + text;
    const base = buffer.length - window.length;
    const at = window.indexOf(end);
    if (at >= 0) {
      parseItems(buffer.take(base + at));
      state = 'tail';
      tail += buffer.take(buffer.length).join('').slice(end.length);
      return;
    }
    const cut = lastItemStart(window, tags);
    if (cut >= 0 && base + cut > 0) parseItems(buffer.take(base + cut));
    const overlap = Math.min(buffer.length, Math.max(end.length, ...tags.map((t) => t.length)) + 1);
    carry = window.slice(window.length - overlap);
  };
  const feed = (text: string) => {
    if (state === 'items') return itemsIn(text);
    if (state === 'tail') return void (tail += text);
    head += text;
    const m = start.exec(head);
    if (!m) return;
    const prefix = m[1] ?? '';
    [tags, end, open] = [itemTag ? [itemTag] : [...names].map((n) => `<${prefix}${n}`), `</${prefix}${list}>`, `<${list}${declarations(head.slice(0, m.index) + m[0])}>`];
    const rest = head.slice(m.index + m[0].length);
    head = head.slice(0, m.index);
    state = m[2] === '/' ? 'tail' : 'items';
    if (state === 'items') itemsIn(rest);
    else tail += rest;
  };
  source.pieces((piece) => feed(decoder.text(piece)));
  feed(decoder.end());
  // A part with no list is all settings (all of it in `head`); items left unclosed at its end are parsed as they are.
  if (state === 'items') parseItems(buffer.take(buffer.length));
  // What is left round the list: the part's root and settings (none when the list is the root, as VML's <xml> is).
  const rest = head + tail;
  return /<[A-Za-z_]/.test(rest.replace(/<\?[^>]*\?>/g, '')) ? parseXml(rest) : undefined;
}

/** The worksheet element without its rows; each row handed to `onRow` as its run is parsed. */
export function streamedWorksheet(source: { pieces(onPiece: (piece: Uint8Array) => void): void }, onRow: (row: XmlElement) => void): XmlElement {
  return streamedList(source, 'sheetData', 'row', onRow) ?? parseXml('<worksheet/>');
}
