/**
 * The PDF's bookmarks (document outline) from the document's headings: paragraphs with an outline
 * level (w:outlineLvl, Heading 1-9 styles; the .doc PAP's outLvl), nested by level, each opening
 * its page where the heading starts, as Word's and LibreOffice's PDF export make them. The layout
 * gives each heading an empty element `hd<n>` (block-html.ts); where MuPDF put it is read when its
 * frame is drawn (render.ts), and the outline is written into the finished PDF (pdf-finish.ts).
 */
import type * as Mupdf from 'mupdf';
import type { Paragraph } from '../model/index';

interface Heading {
  level: number;
  title: string;
  /** Page index in the output and distance from the page's top, points: where it was drawn first. */
  at?: { page: number; y: number };
}

/** Titles longer than this are cut (a heading that is a whole paragraph). */
const MOST_TITLE = 200;

export class DocumentOutline {
  private readonly headings: Heading[] = [];
  private readonly indexes = new WeakMap<Paragraph, number>();

  /** The heading number of a paragraph with an outline level, the same each time it is written. */
  index(p: Paragraph): number {
    let k = this.indexes.get(p);
    if (k === undefined) {
      k = this.headings.push({ level: p.props.outlineLevel ?? 0, title: titleOf(p) }) - 1;
      this.indexes.set(p, k);
    }
    return k;
  }

  /** Heading `k` was drawn on output page `page`, `y` points from its top (the first time counts). */
  place(k: number, page: number, y: number): void {
    const h = this.headings[k];
    if (h && !h.at) h.at = { page, y: Math.max(0, y) };
  }

  get size(): number {
    return this.headings.length;
  }

  /** Writes the outline (PDF /Outlines) of the headings that were drawn and have a title. */
  write(pdf: Mupdf.PDFDocument): void {
    // In the order they are shown (headings are numbered as chunks are first laid out, which is not always the document's order).
    const shown = this.headings.filter((h) => h.at && h.title).sort((a, b) => a.at!.page - b.at!.page || a.at!.y - b.at!.y);
    if (!shown.length) return;
    type Node = { heading?: Heading; children: Node[]; obj?: Mupdf.PDFObject };
    // Nest by level: a heading goes under the last one of a lower level before it.
    const root: Node = { children: [] };
    const open: { level: number; node: Node }[] = [{ level: -1, node: root }];
    for (const heading of shown) {
      while (open.length > 1 && open.at(-1)!.level >= heading.level) open.pop();
      const node: Node = { heading, children: [] };
      open.at(-1)!.node.children.push(node);
      open.push({ level: heading.level, node });
    }
    const outlines = pdf.addObject(pdf.newDictionary());
    outlines.put('Type', pdf.newName('Outlines'));
    const link = (parent: Node, parentObj: Mupdf.PDFObject): number => {
      let count = 0;
      parent.children.forEach((node, i) => {
        const item = pdf.addObject(pdf.newDictionary());
        node.obj = item;
        const { page, y } = node.heading!.at!;
        const pageObj = pdf.findPage(page);
        const height = pageHeight(pageObj);
        item.put('Title', pdf.newString(node.heading!.title));
        item.put('Parent', parentObj);
        const dest = pdf.newArray();
        dest.push(pageObj);
        dest.push(pdf.newName('XYZ'));
        dest.push(pdf.newNull());
        dest.push(Math.round((height - y) * 100) / 100);
        dest.push(pdf.newNull());
        item.put('Dest', dest);
        const prev = parent.children[i - 1]?.obj;
        if (prev) {
          item.put('Prev', prev);
          prev.put('Next', item);
        }
        const below = link(node, item);
        // Open items count their shown descendants; level 1 and 2 headings are shown open.
        if (below) item.put('Count', node.heading!.level < 1 ? below : -below);
        count += 1 + (node.heading!.level < 1 ? below : 0);
      });
      if (parent.children.length) {
        parentObj.put('First', parent.children[0]!.obj!);
        parentObj.put('Last', parent.children.at(-1)!.obj!);
      }
      return count;
    };
    outlines.put('Count', link(root, outlines));
    pdf.getTrailer().get('Root').put('Outlines', outlines);
    // Viewers show the bookmarks beside the pages when the document opens.
    pdf.getTrailer().get('Root').put('PageMode', pdf.newName('UseOutlines'));
  }
}

function pageHeight(page: Mupdf.PDFObject): number {
  const box = page.get('MediaBox');
  return box.isArray() ? box.get(3).asNumber() - box.get(1).asNumber() : 792;
}

/** A heading's text as a bookmark title: its text runs, spaces collapsed. */
function titleOf(p: Paragraph): string {
  const label = p.props.list ? `${p.props.list.label} ` : '';
  const text = p.inlines.map((it) => (it.kind === 'text' && !it.style.hidden ? it.text : it.kind === 'tab' ? ' ' : '')).join('');
  const title = (label + text).replace(/\s+/g, ' ').trim();
  return title.length > MOST_TITLE ? `${title.slice(0, MOST_TITLE - 1)}…` : title;
}
