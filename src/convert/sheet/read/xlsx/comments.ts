/**
 * A worksheet's comments (notes), read only when the sheet prints them (pageSetup cellComments):
 * the comments part's text by cell for the list after the sheet ("atEnd"), or, "asDisplayed", the
 * shown ones (the legacy VML drawing's Note shapes with x:Visible) as boxes where their x:Anchor
 * puts them, their runs in their own fonts. Excel's meaning is followed: a sheet that prints no
 * comments prints no shown note either (LibreOffice prints shown notes whatever the setting).
 */
import { attr, child, children, textOf, XmlError, type XmlElement } from '../../../../codecs/xml';
import type { Package } from '../../../office/package';
import type { TextParagraph, TextRun } from '../../../office/model';
import type { Theme } from '../../../office/theme';
import type { CellAnchor, PrintSettings, SheetDrawing, SheetNote } from '../../model';
import { cellRef, MAX_COLS, MAX_ROWS } from './cells';
import { colorOf } from './colors';
import { cutText } from './drawings';
import { streamedList } from './sheet-stream';
import { noteDrawings, NOTES_MAX, SHOWN_NOTES_MAX } from '../note-drawings';

/** Characters of comment text a sheet prints at most, all comments together. */
export const NOTE_TEXT_MAX = 262_144;
/** Excel's comment font where a run names none. */
const NOTE_FONT = { font: 'Tahoma', size: 9, color: '000000' };
/** VML anchors are in pixels at 96 per inch. */
const PX = 0.75;

function runOf(r: XmlElement, theme: Theme): TextRun {
  const p = child(r, 'rPr');
  const size = Number(attr(child(p, 'sz'), 'val'));
  const on = (name: string) => !!child(p, name) && attr(child(p, name), 'val') !== '0' && attr(child(p, name), 'val') !== 'false';
  return {
    text: textOf(child(r, 't')),
    font: attr(child(p, 'rFont'), 'val') ?? NOTE_FONT.font,
    size: size > 0 && size < 410 ? size : NOTE_FONT.size,
    color: colorOf(child(p, 'color'), theme) ?? NOTE_FONT.color,
    ...(on('b') ? { bold: true } : {}),
    ...(on('i') ? { italic: true } : {}),
    ...(child(p, 'u') && attr(child(p, 'u'), 'val') !== 'none' ? { underline: true } : {}),
    ...(on('strike') ? { strike: true } : {}),
  };
}

interface Comment {
  row: number;
  col: number;
  runs: TextRun[];
}

/** A part's elements `item` of its list `list`, read as the part inflates (sheet-stream.ts), each handed to `onItem`; a part that is not XML is left as read so far. */
function eachItem(pkg: Package, part: string, list: string, item: string, onItem: (el: XmlElement) => void, itemTag?: string): void {
  if (!pkg.has(part)) return;
  try {
    streamedList({ pieces: (onPiece) => void pkg.readPieces(part, onPiece) }, list, item, onItem, itemTag);
  } catch (e) {
    if (!(e instanceof XmlError)) throw e; // the sheet prints without the comments past the damage
  }
}

/** The comments part's comments, in its order, at most NOTES_MAX of them and NOTE_TEXT_MAX characters. */
function readComments(pkg: Package, part: string, theme: Theme): Comment[] {
  const text = { left: NOTE_TEXT_MAX };
  const out: Comment[] = [];
  // Streamed: a part of 100,000 comments is 40 MB of text, never held whole.
  eachItem(pkg, part, 'commentList', 'comment', (c) => {
    const at = out.length < NOTES_MAX ? cellRef(attr(c, 'ref')?.split(':')[0] ?? '') : undefined;
    if (!at) return;
    cutText(c, text);
    const body = child(c, 'text');
    const plain = child(body, 't');
    const runs = plain ? [{ ...NOTE_FONT, text: textOf(plain) }] : children(body, 'r').map((r) => runOf(r, theme));
    out.push({ ...at, runs });
  });
  return out;
}

/** A VML Note's x:Anchor (left column, offset px, top row, offset px, right column, offset, bottom row, offset) as the box's corners. */
function anchorCorners(anchor: string): { from: CellAnchor; to: CellAnchor } | undefined {
  const n = anchor.split(',').map((v) => Number(v.trim()));
  if (n.length !== 8 || !n.every((v) => Number.isInteger(v) && v >= 0)) return undefined;
  const corner = (col: number, dx: number, row: number, dy: number): CellAnchor | undefined =>
    col < MAX_COLS && row < MAX_ROWS ? { col, colOffset: Math.min(dx, 10_000) * PX, row, rowOffset: Math.min(dy, 10_000) * PX } : undefined;
  const from = corner(n[0]!, n[1]!, n[2]!, n[3]!);
  const to = corner(n[4]!, n[5]!, n[6]!, n[7]!);
  return from && to ? { from, to } : undefined;
}

/** The shown notes of the VML drawing: their cell, box and fill colour by "row:col". */
function shownNotes(pkg: Package, vmlPart: string): Map<string, { from: CellAnchor; to: CellAnchor; fill?: string }> {
  const out = new Map<string, { from: CellAnchor; to: CellAnchor; fill?: string }>();
  // Streamed as the comments are: only shown notes are kept, at most SHOWN_NOTES_MAX of them.
  eachItem(pkg, vmlPart, 'xml', 'shape', (shape) => {
    const data = child(shape, 'ClientData');
    if (out.size >= SHOWN_NOTES_MAX || attr(data, 'ObjectType') !== 'Note' || !child(data, 'Visible')) return;
    const box = anchorCorners(textOf(child(data, 'Anchor')));
    const [row, col] = [Number(textOf(child(data, 'Row'))), Number(textOf(child(data, 'Column')))];
    if (!box || !Number.isInteger(row) || !Number.isInteger(col)) return;
    const fill = /^#?([0-9a-f]{6})\b/i.exec(attr(shape, 'fillcolor') ?? '')?.[1]?.toUpperCase();
    out.set(`${row}:${col}`, { ...box, ...(fill ? { fill } : {}) });
  }, '<v:shape');
  return out;
}

/** A comment's runs as one paragraph (its line breaks kept in the runs' text). */
const paragraphOf = (runs: TextRun[]): TextParagraph => ({ align: 'left', runs, size: runs[0]?.size ?? NOTE_FONT.size, font: runs[0]?.font ?? NOTE_FONT.font });

/**
 * What the sheet prints of its comments: the list for the pages after it, or the shown notes'
 * drawings. Nothing when it prints none, or has none.
 */
export function sheetComments(pkg: Package, sheetPart: string, mode: PrintSettings['comments'], legacyDrawing: XmlElement | undefined, theme: Theme): { notes?: SheetNote[]; drawings?: SheetDrawing[] } {
  if (!mode) return {};
  const rels = [...pkg.rels(sheetPart).values()].filter((r) => !r.external);
  const part = rels.find((r) => r.type.endsWith('/comments'))?.target;
  const comments = part ? readComments(pkg, part, theme) : [];
  if (!comments.length) return {};
  if (mode === 'atEnd') {
    const notes = comments.map(({ row, col, runs }) => ({ row, col, text: runs.map((r) => r.text).join('') }));
    return { notes: notes.sort((a, b) => a.row - b.row || a.col - b.col) };
  }
  const vml = legacyDrawing && pkg.rels(sheetPart).get(attr(legacyDrawing, 'r:id') ?? '');
  const shown = vml && !vml.external ? shownNotes(pkg, vml.target) : new Map();
  const drawings = comments.flatMap((c) => {
    const box = shown.get(`${c.row}:${c.col}`);
    return box ? noteDrawings({ row: c.row, col: c.col, ...box, paragraphs: [paragraphOf(c.runs)] }) : [];
  });
  return drawings.length ? { drawings } : {};
}
