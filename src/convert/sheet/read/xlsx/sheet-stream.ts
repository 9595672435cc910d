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

/** The start of the last item tag in `text` (-1: none), an item's start being where the items before it are complete. */
function lastItemStart(text: string, tags: readonly string[]): number {
  let last = -1;
  for (const tag of tags) {
    for (let at = text.lastIndexOf(tag); at > last; at = text.lastIndexOf(tag, at - 1)) {
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
 * A part whose one list element (`list`: sheetData, commentList, wsDr) holds many items (`items`:
 * row, comment, the anchors; in the list's prefix unless `itemTag` names it): the part without the
 * items, each item handed to `onItem` as its run is parsed.
 */
export function streamedList(source: { pieces(onPiece: (piece: Uint8Array) => void): void }, list: string, items: string | readonly string[], onItem: (el: XmlElement) => void, itemTag?: string, deeper?: XmlStream['deeper']): XmlElement | undefined {
  const names = new Set(typeof items === 'string' ? [items] : items);
  const decoder = new TextDecoder();
  const start = listTag(list);
  let state: 'head' | 'items' | 'tail' = 'head';
  let pending = '';
  let head = '';
  let tail = '';
  let tags = [itemTag ?? `<${[...names][0]}`];
  let end = `</${list}>`;
  let open = `<${list}>`;
  const parseItems = (run: string) => {
    if (run.trim()) parseXml(`${open}${run}</${list}>`, { depth: 2, element: (el) => (names.has(el.name) ? (onItem(el), false) : true), ...(deeper ? { deeper } : {}) });
  };
  const feed = (text: string) => {
    pending += text;
    if (state === 'head') {
      const m = start.exec(pending);
      if (!m) return;
      head = pending.slice(0, m.index);
      const prefix = m[1] ?? '';
      [tags, end, open] = [itemTag ? [itemTag] : [...names].map((n) => `<${prefix}${n}`), `</${prefix}${list}>`, `<${list}${declarations(head + m[0])}>`];
      pending = pending.slice(m.index + m[0].length);
      state = m[2] === '/' ? 'tail' : 'items';
    }
    if (state === 'items') {
      const at = pending.indexOf(end);
      if (at >= 0) {
        parseItems(pending.slice(0, at));
        pending = pending.slice(at + end.length);
        state = 'tail';
      } else {
        const cut = lastItemStart(pending, tags);
        if (cut > 0) {
          parseItems(pending.slice(0, cut));
          pending = pending.slice(cut);
        }
      }
    }
    if (state === 'tail') [tail, pending] = [tail + pending, ''];
  };
  source.pieces((piece) => feed(decoder.decode(piece, { stream: true })));
  feed(decoder.decode());
  // A part with no list is all settings; items left unclosed at its end are parsed as they are.
  if (state === 'head') head = pending;
  else if (state === 'items') parseItems(pending);
  // What is left round the list: the part's root and settings (none when the list is the root, as VML's <xml> is).
  const rest = head + tail;
  return /<[A-Za-z_]/.test(rest.replace(/<\?[^>]*\?>/g, '')) ? parseXml(rest) : undefined;
}

/** The worksheet element without its rows; each row handed to `onRow` as its run is parsed. */
export function streamedWorksheet(source: { pieces(onPiece: (piece: Uint8Array) => void): void }, onRow: (row: XmlElement) => void): XmlElement {
  return streamedList(source, 'sheetData', 'row', onRow) ?? parseXml('<worksheet/>');
}
