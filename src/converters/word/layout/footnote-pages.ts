import type * as Mupdf from 'mupdf';
import type { Block, Inline } from '../model';

/** Anchors the layout puts in the HTML: block starts (`#b<i>`) and footnote references (`#n<i>`, i into noteIds). */
export interface NoteAnchors {
  blocks: boolean;
  noteIds: string[];
}

type Layout = (blocks: Block[], anchors: NoteAnchors) => Mupdf.Document;

/** A stretch of body that ends on a page whose footnotes are drawn at its foot. */
export interface PlannedStretch {
  blocks: Block[];
  /** Footnotes to draw at the foot of the stretch's last page (empty: none). */
  notes: string[];
}

/** Footnote references in blocks, in reading order (text boxes and tables included). */
export function noteRefsIn(blocks: Block[], out: string[] = []): string[] {
  const inline = (it: Inline) => {
    if (it.kind === 'noteRef') out.push(it.id);
    else if (it.kind === 'textbox') noteRefsIn(it.blocks, out);
  };
  for (const b of blocks) {
    if (b.kind === 'paragraph') b.inlines.forEach(inline);
    else for (const r of b.rows) for (const c of r.cells) noteRefsIn(c.blocks, out);
  }
  return out;
}

/**
 * Splits a page-break-free stretch so that each page with footnote references ends where its
 * footnotes begin, as Word places them at the foot of the page. The stretch is laid out (a window
 * of blocks at a time) with anchors on block starts and references; on the first page that has
 * references, the body is cut before the first block that would run into the notes' room, and the
 * rest starts a new stretch. A block is never split (Word would split a paragraph by lines), so a
 * page may end a little early. `notesHeight(ids)` is the height the notes take, separator included.
 */
export function planFootnotePages(blocks: Block[], frameHeight: number, layout: Layout, notesHeight: (ids: string[]) => number): PlannedStretch[] {
  const out: PlannedStretch[] = [];
  let rest = blocks;
  let window = 40;
  for (let guard = 0; guard < 2000 && rest.length; guard++) {
    const noteIds = noteRefsIn(rest);
    if (!noteIds.length) break;
    const probe = rest.slice(0, window);
    const found = firstNotePage(layout(probe, { blocks: true, noteIds }), noteIds);
    // The page is only known for sure when content after the window cannot reach it.
    if (probe.length < rest.length && (!found || found.page >= found.pages - 1)) {
      window *= 2;
      continue;
    }
    if (!found) break;
    const limit = frameHeight - notesHeight(found.notes);
    let cut = found.starts.findIndex((s) => s && (s.page > found.page || (s.page === found.page && s.y >= limit)));
    if (cut < 0) cut = probe.length;
    // The block before the cut must end above the notes: one that starts on this page and is
    // followed by a block on a later page may run into them, so it moves on too (unless alone).
    const prev = found.starts[cut - 1];
    const next = found.starts[cut];
    if (cut > 1 && prev && prev.page === found.page && (!next || next.page > found.page) && found.bottom > limit) cut--;
    cut = Math.max(cut, 1);
    const stretch = rest.slice(0, cut);
    out.push({ blocks: stretch, notes: noteRefsIn(stretch) });
    rest = rest.slice(cut);
    window = 40;
  }
  if (rest.length) out.push({ blocks: rest, notes: [] });
  return out;
}

interface NotePage {
  pages: number;
  /** The first page with a footnote reference, and the notes referenced there. */
  page: number;
  notes: string[];
  /** Where each block starts (page and y), when its anchor was found. */
  starts: ({ page: number; y: number } | undefined)[];
  /** The lowest text on that page (its bottom edge). */
  bottom: number;
}

function firstNotePage(doc: Mupdf.Document, noteIds: string[]): NotePage | undefined {
  try {
    const pages = doc.countPages();
    const starts: ({ page: number; y: number } | undefined)[] = [];
    let result: NotePage | undefined;
    for (let p = 0; p < pages; p++) {
      const page = doc.loadPage(p);
      const notes: string[] = [];
      for (const link of page.getLinks()) {
        const m = /^#([bn])(\d+)$/.exec(link.getURI());
        if (!m) continue;
        const i = Number(m[2]);
        const y = link.getBounds()[1];
        if (m[1] === 'b') {
          const known = starts[i];
          if (!known || p < known.page || (p === known.page && y < known.y)) starts[i] = { page: p, y };
        } else if (noteIds[i] !== undefined && !notes.includes(noteIds[i]!)) notes.push(noteIds[i]!);
      }
      if (notes.length && !result) {
        const stext = page.toStructuredText('preserve-whitespace');
        const json = JSON.parse(stext.asJSON()) as { blocks: { bbox: { y: number; h: number } }[] };
        stext.destroy();
        const bottom = json.blocks.reduce((m, b) => Math.max(m, b.bbox.y + b.bbox.h), 0);
        // Notes in reading order: the order the references have in the document.
        result = { pages, page: p, notes: noteIds.filter((id) => notes.includes(id)), starts, bottom };
      }
      page.destroy();
      if (result && p > result.page) break; // block starts on the next page are known now
    }
    return result;
  } finally {
    doc.destroy();
  }
}
