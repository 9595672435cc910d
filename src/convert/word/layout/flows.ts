/**
 * A document's body cut into what the layout lays out at once: flows (runs of pages with one page
 * geometry and one set of headers) and, within each, page-break-free stretches (chunks).
 */
import type { Block, Inline, Paragraph, Section, WordDocument } from '../model/index';

/** A run of pages that share one page geometry and one set of headers: a section, or continuous sections. */
export interface Flow {
  section: Section;
  /** Page-break-free stretches of the flow: MuPDF's HTML layout ignores CSS page breaks. */
  chunks: Block[][];
  /**
   * A continuous section with another number of columns: it starts on the last page of the flow
   * before, below its text, when there is room (render.ts); false when it could not (it begins a
   * page, which is not its first).
   */
  continues?: boolean;
}

function sameGeometry(a: Section, b: Section): boolean {
  const pa = a.page;
  const pb = b.page;
  return pa.width === pb.width && pa.height === pb.height && pa.marginLeft === pb.marginLeft && pa.marginRight === pb.marginRight;
}

/**
 * Splits a paragraph at its page breaks, and at its column breaks (in a one-column section these
 * are page breaks, as in Word; in more columns the part after one starts the next column). The
 * parts after a break lose the list label and space before.
 */
function splitAtBreaks(p: Paragraph, columns: number): Paragraph[] {
  const splits = (i: Inline) => i.kind === 'break' && (i.type === 'page' || i.type === 'column');
  if (!p.inlines.some(splits)) return [p];
  const parts: Paragraph[] = [];
  const kinds: ('pageBreakBefore' | 'columnBreakBefore')[] = []; // the break before parts[i + 1]
  let current: Inline[] = [];
  for (const it of p.inlines) {
    if (it.kind === 'break' && splits(it)) {
      parts.push({ ...p, inlines: current });
      kinds.push(it.type === 'column' && columns > 1 ? 'columnBreakBefore' : 'pageBreakBefore');
      current = [];
    } else current.push(it);
  }
  parts.push({ ...p, inlines: current });
  const afterBreak = (part: Paragraph, i: number): Paragraph => ({ ...part, props: { ...part.props, list: undefined, spaceBefore: 0, [kinds[i - 1]!]: true } });
  // A paragraph that opens with its break starts on the next page, label and all, as LibreOffice
  // shows it: no empty line of it (shaded, in AgendaTitle of LibreOffice's agenda templates) is left behind.
  if (parts[0]!.inlines.length === 0 && parts[1]!.inlines.length) {
    return [{ ...parts[1]!, props: { ...p.props, [kinds[0]!]: true } }, ...parts.slice(2).map((part, k) => afterBreak(part, k + 2))];
  }
  return parts.map((part, i) => (i === 0 ? part : afterBreak(part, i)));
}

/**
 * Whether a block starts a page: a paragraph with pageBreakBefore, or a table whose first cell
 * opens with such a paragraph (or a page break), which Word and LibreOffice honour by moving the
 * whole table (LibreOffice's agenda templates start their minutes table so).
 */
function breaksBefore(block: Block): boolean {
  const first = block.kind === 'table' ? block.rows[0]?.cells[0]?.blocks[0] : block;
  if (first?.kind !== 'paragraph') return false;
  const lead = first.inlines[0];
  return !!first.props.pageBreakBefore || (block.kind === 'table' && lead?.kind === 'break' && lead.type === 'page');
}

function chunksOf(blocks: Block[], columns: number): Block[][] {
  const chunks: Block[][] = [[]];
  for (const block of blocks) {
    const parts = block.kind === 'paragraph' ? splitAtBreaks(block, columns) : [block];
    parts.forEach((part, i) => {
      // A column break stays in the chunk: the layout moves what follows it to the next column.
      const nextColumn = part.kind === 'paragraph' && !!part.props.columnBreakBefore;
      const breaks = (i > 0 && !nextColumn) || breaksBefore(part);
      if (breaks && chunks[chunks.length - 1]!.length) chunks.push([]);
      // A page break that ends the paragraph leaves an empty remainder: Word shows no line for it.
      if (i > 0 && !nextColumn && part.kind === 'paragraph' && part.inlines.length === 0 && i === parts.length - 1) return;
      chunks[chunks.length - 1]!.push(part);
    });
  }
  return chunks;
}

/** Where a flow's body sits on its pages, and how its chunks are laid out (frames one column wide). */
export interface FlowFrame {
  flow: Flow;
  top: number;
  columns: number;
  gap: number;
  frameWidth: number;
  frameHeight: number;
}

export function flowsOf(doc: WordDocument): Flow[] {
  const flows: Flow[] = [];
  for (const section of doc.sections) {
    const prev = flows[flows.length - 1];
    if (prev && (section.start === 'continuous' || (section.start === 'nextColumn' && (section.columns ?? 1) > 1)) && sameGeometry(prev.section, section)) {
      const more = chunksOf(section.blocks, section.columns ?? 1);
      const first = section.blocks[0];
      const lead = first?.kind === 'paragraph' ? first.inlines[0] : undefined;
      const breaksFirst = !!first && (breaksBefore(first) || (lead?.kind === 'break' && lead.type === 'page'));
      // A continuous section ends the columns of the one before (balanced, as Word does at every
      // continuous break) when either has more than one; one-column sections simply run on.
      const columns = section.columns ?? 1;
      const prevColumns = prev.section.columns ?? 1;
      if (section.start === 'continuous' && (columns !== prevColumns || columns > 1) && !breaksFirst && more[0]!.length) {
        flows.push({ section, chunks: more, continues: true });
        continue;
      }
      // A section that opens with a page break starts its own chunk (its page) all the same.
      if (breaksFirst) prev.chunks.push(...more.filter((chunk) => chunk.length));
      else {
        // A "next column" section break is a column break before the section's first paragraph.
        const head = more[0]![0];
        if (section.start === 'nextColumn' && head?.kind === 'paragraph') more[0]![0] = { ...head, props: { ...head.props, columnBreakBefore: true } };
        prev.chunks[prev.chunks.length - 1]!.push(...more[0]!);
        prev.chunks.push(...more.slice(1));
      }
    } else flows.push({ section, chunks: chunksOf(section.blocks, section.columns ?? 1) });
  }
  return flows;
}
