/**
 * Reading a story (the body, a header or footer, a note, a text box): block-level content
 * (paragraphs, tables, content controls) and paragraph properties with styles and numbering resolved.
 * Runs and inline content are in ./runs.ts; tables in ./tables.ts.
 */
import { borderShows, type Block, type Paragraph, type ParagraphProps, type RunStyle } from '../../model/index';
import { child, children, type XmlElement } from '../../../../codecs/xml';
import { FieldStack } from './fields';
import type { Numbering } from './numbering';
import type { Package } from '../../../office/package';
import { finalRunStyle, finalTabs, mergePara, mergeRun, parsePPr, parseRPr, type ParaProps, type RunProps } from './props';
import { readInlines } from './runs';
import { chooseAlternate } from '../../../office/alternate';
import type { Styles, TableLayer } from './styles';
import { hasPrivateUse, isSymbolFont, mapSymbolText } from './symbols';
import { readTable } from './tables';
import type { Theme } from '../../../office/theme';
import type { RevisionAuthors } from '../../model/revisions';
import type { ModelCounts } from '../../model/limits';

export interface DocContext {
  pkg: Package;
  theme: Theme;
  styles: Styles;
  numbering: Numbering;
  /** Register a footnote/endnote reference: its key in WordDocument.notes and its label. */
  noteRef(kind: 'footnote' | 'endnote', id: string): { key: string; label: string } | undefined;
  /** Share equal RunStyle objects (less memory; lets adjacent runs merge). */
  intern(style: RunStyle): RunStyle;
  /** Tracked changes' authors and their colours. */
  revisionAuthors: RevisionAuthors;
  /** Paragraphs, runs, rows... read so far: past a limit, LimitExceeded (../limits.ts). */
  counts: ModelCounts;
}

export class StoryReader {
  readonly fields = new FieldStack();

  constructor(
    readonly ctx: DocContext,
    /** The part whose relationships this story's r:id attributes refer to. */
    readonly part: string,
    /** Inside a note body: the label that w:footnoteRef / w:endnoteRef show. */
    readonly noteLabel?: string,
  ) {}

  blocks(container: XmlElement, layer?: TableLayer): Block[] {
    const out: Block[] = [];
    this.walk(container, (b) => out.push(b), layer);
    return out;
  }

  /** Visit block-level content in order; `sectPr` is given for a paragraph that ends a section. */
  walk(container: XmlElement, emit: (b: Block, sectPr?: XmlElement) => void, layer?: TableLayer): void {
    for (const el of container.children) {
      if (typeof el === 'string') continue;
      switch (el.name) {
        case 'p': {
          const sectPr = child(child(el, 'pPr'), 'sectPr');
          emit(this.paragraph(el, layer), sectPr);
          break;
        }
        case 'tbl':
          emit(readTable(el, this));
          break;
        case 'sdt':
          this.walk(child(el, 'sdtContent') ?? el, emit, layer);
          break;
        case 'customXml':
        case 'ins':
        case 'moveTo':
        case 'smartTag':
        case 'sdtContent':
          this.walk(el, emit, layer);
          break;
        case 'AlternateContent': {
          const chosen = chooseAlternate(el);
          if (chosen) this.walk(chosen, emit, layer);
          break;
        }
        // w:del / w:moveFrom at block level, bookmarks, comments ranges, altChunk: nothing to show.
      }
    }
  }

  paragraph(p: XmlElement, layer?: TableLayer): Paragraph {
    const { styles, numbering } = this.ctx;
    this.ctx.counts.add('paragraphs');
    const pPrEl = child(p, 'pPr');
    const direct = parsePPr(pPrEl, this.ctx.theme);
    const styleId = direct.pStyle && styles.has(direct.pStyle, 'paragraph') ? direct.pStyle : styles.defaultParagraphStyle;
    const style = styles.paragraphStyle(styleId);

    // Numbering: direct numPr wins; else the paragraph style's (ilvl defaults to 0). numId 0 = none.
    const fromDirect = direct.numId !== undefined;
    const numId = direct.numId ?? style.pPr.numId;
    const ilvl = direct.ilvl ?? style.pPr.ilvl ?? 0;
    const level = numId && numId !== '0' ? numbering.levelProps(numId, ilvl) : undefined;

    let props: ParaProps = mergePara(styles.docPara, layer?.pPr ?? {});
    // A list level's indent sits above the style that carries the numbering, below a style that
    // merely coexists with direct numbering (ECMA-376 17.9.23; what Word and LibreOffice show).
    if (level && fromDirect) props = mergePara(mergePara(props, style.pPr), level.pPr);
    else if (level) props = mergePara(mergePara(props, level.pPr), style.pPr);
    else props = mergePara(props, style.pPr);
    props = mergePara(props, direct);

    let runBase: RunProps = mergeRun(styles.docRun, layer?.rPr ?? {});
    runBase = mergeRun(runBase, style.rPr);

    const markDirect = parseRPr(child(pPrEl, 'rPr'), this.ctx.theme);
    const mark = mergeRun(mergeRun(runBase, styles.characterStyle(markDirect.rStyle)), markDirect);

    const out: ParagraphProps = {};
    copyParaProps(props, out);
    if (styleId) out.styleId = styleId;
    out.markStyle = this.ctx.intern(finalRunStyle(mark));

    if (level && numId) {
      const label = numbering.next(numId, ilvl);
      if (label) {
        const labelProps = mergeRun(mark, label.rPr);
        let text = label.label;
        // Bullets from Symbol/Wingdings: map to Unicode and show them in the paragraph's font.
        if (isSymbolFont(labelProps.font) || hasPrivateUse(text)) {
          text = mapSymbolText(text, labelProps.font);
          labelProps.font = mark.font && !isSymbolFont(mark.font) ? mark.font : styles.docRun.font;
          delete labelProps.fontOther;
        }
        // Formatting of the paragraph mark that must not reach the label.
        delete labelProps.link;
        delete labelProps.highlight;
        if (text) out.list = { label: text, style: this.ctx.intern(finalRunStyle(labelProps)), suffix: label.suffix };
      }
    }

    const inlines = readInlines(p, runBase, this);
    // Bookmarks starting here, as targets of the document's own links (a table of contents' entries); _GoBack is Word's own.
    const bookmarks = children(p, 'bookmarkStart').map((b) => b.attrs['name'] ?? '').filter((name) => name && name !== '_GoBack');
    if (bookmarks.length) out.bookmarks = bookmarks;
    return { kind: 'paragraph', props: out, inlines };
  }
}

function copyParaProps(p: ParaProps, out: ParagraphProps): void {
  if (p.align) out.align = p.align;
  if (p.indentLeft) out.indentLeft = p.indentLeft;
  if (p.indentRight) out.indentRight = p.indentRight;
  if (p.firstLine) out.firstLine = p.firstLine;
  if (p.spaceBefore !== undefined) out.spaceBefore = p.spaceBefore;
  if (p.spaceAfter !== undefined) out.spaceAfter = p.spaceAfter;
  if (p.autoSpaceBefore) out.autoSpaceBefore = true;
  if (p.autoSpaceAfter) out.autoSpaceAfter = true;
  if (p.line) out.line = p.line;
  if (p.contextualSpacing) out.contextualSpacing = true;
  if (p.pageBreakBefore) out.pageBreakBefore = true;
  if (p.keepNext) out.keepNext = true;
  if (p.keepLines) out.keepLines = true;
  if (p.widowControl !== false) out.widowControl = true;
  if (p.bidi) out.bidi = true;
  if (p.shading && p.shading !== 'auto') out.shading = p.shading;
  if (p.borders) {
    const b: NonNullable<ParagraphProps['borders']> = {};
    for (const side of ['top', 'bottom', 'left', 'right', 'between'] as const) {
      const v = p.borders[side];
      if (borderShows(v)) b[side] = v;
    }
    if (Object.keys(b).length) out.borders = b;
  }
  const tabs = finalTabs(p.tabs);
  if (tabs) out.tabs = tabs;
  if (p.outlineLevel !== undefined) out.outlineLevel = p.outlineLevel;
  if (p.frame) out.frame = p.frame;
}
