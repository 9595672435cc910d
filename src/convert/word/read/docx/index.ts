/**
 * DOCX reader: OOXML package bytes → the Word document model (../model.ts).
 *
 * Everything Word resolves before layout is resolved here: styles and theme, numbering labels, field
 * results, header/footer selection per section, note numbering. Runs in Workers and Node (no DOM, no
 * Node APIs). Footnotes and endnotes are keyed in WordDocument.notes as "footnote:<id>" and
 * "endnote:<id>" (the two parts number their ids independently), and noteRef inlines carry that key.
 */
import type { Block, RunStyle, Section, WordDocument } from '../../model/index';
import { ConversionError } from '../../../errors';
import { dropSectionMarks } from '../../model/section-marks';
import { attr, child, children, type XmlElement } from '../../../../codecs/xml';
import { Numbering, formatNumber } from './numbering';
import { Package, checkContainer, inPart } from '../../../office/package';
import { toggle } from './props';
import { readSection } from './sections';
import { StoryReader, type DocContext } from './story';
import { withoutEdgeAutoSpacing } from '../../model/auto-spacing';
import { Styles } from './styles';
import { EMPTY_THEME, parseTheme, resolveColor, type Theme } from '../../../office/theme';
import { RevisionAuthors } from '../../model/revisions';
import { ModelCounts } from '../../model/limits';
import { parseXml } from '../../../../codecs/xml';
import { ignoreProblems, type ProblemSink } from '../../../problems';
import { LimitExceeded } from '../../../../lib/limits';

/** `problems` hears of every referenced part that cannot be read: the document converts without it. */
export function readDocx(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): WordDocument {
  checkContainer(bytes);
  const pkg = new Package(bytes, problems);
  const main = mainPart(pkg);
  if (!main) throw new ConversionError('corrupt', 'The DOCX package has no word/document.xml.');

  // A damaged secondary part costs its formatting, not the document (Package tells the sink).
  const optional = (suffix: string) => {
    const target = pkg.relTarget(main, suffix);
    return { target, root: target ? pkg.xml(target) : undefined };
  };
  const themeRoot = optional('/theme').root;
  const theme = themeRoot ? parseTheme(themeRoot) : EMPTY_THEME;
  const styles = new Styles(optional('/styles').root, theme);
  const numbering = new Numbering(optional('/numbering').root, theme, styles);
  const settings = optional('/settings').root;
  // Settings switches read like toggle properties: present means on unless w:val says off.
  const setting = (parent: XmlElement | undefined, name: string) => !!toggle(child(parent, name));
  const evenAndOdd = setting(settings, 'evenAndOddHeaders');
  const compat = child(settings, 'compat');

  const notes = new Map<string, Block[]>();
  const noteParts = {
    footnote: noteSource(optional('/footnotes'), 'footnote', settings, 'decimal'),
    endnote: noteSource(optional('/endnotes'), 'endnote', settings, 'lowerRoman'),
  };
  const ctx = documentContext({ pkg, theme, styles, numbering }, noteParts, notes);
  const { sections, documentRoot } = readBody(ctx, main, evenAndOdd);

  return {
    sections,
    notes,
    defaultFont: styles.docRun.font ?? 'Times New Roman',
    defaultSize: styles.docRun.size ?? 10,
    // w:doNotUseHTMLParagraphAutoSpacing (settings compat): spacings add up instead of the larger winning.
    paragraphSpacing: setting(compat, 'doNotUseHTMLParagraphAutoSpacing') ? 'sum' : 'larger',
    ...(setting(compat, 'noLeading') ? { noLeading: true } : {}),
    ...pageColor(child(documentRoot, 'background'), setting(settings, 'displayBackgroundShape'), theme),
  };
}

/**
 * What every story reads through: the package, theme, styles and numbering, one object per run style,
 * and the notes, numbered and read (into `notes`) as the text first refers to them.
 */
function documentContext(
  parts: Pick<DocContext, 'pkg' | 'theme' | 'styles' | 'numbering'>,
  noteParts: Record<'footnote' | 'endnote', NoteSource>,
  notes: Map<string, Block[]>,
): DocContext {
  const styleCache = new Map<string, RunStyle>();
  const counts = new ModelCounts();
  const queuedNotes: (() => void)[] = [];
  let readingNotes = false;

  const ctx: DocContext = {
    ...parts,
    revisionAuthors: new RevisionAuthors(),
    counts,
    intern(style) {
      const key = JSON.stringify(style);
      let s = styleCache.get(key);
      if (!s) styleCache.set(key, (s = style));
      return s;
    },
    noteRef(kind, id) {
      const src = noteParts[kind];
      const key = `${kind}:${id}`;
      const known = src.labels.get(id);
      if (known !== undefined) return { key, label: known };
      const el = src.byId.get(id);
      if (!el || !src.part) return undefined;
      const label = formatNumber(src.next++, src.format);
      src.labels.set(id, label);
      counts.add('notes');
      const part = src.part;
      // A note whose text refers to another note (Word writes none) is read after it, not inside
      // it: a chain of 100,000 notes each referring to the next would overflow the stack.
      queuedNotes.push(() => notes.set(key, new StoryReader(ctx, part, label).blocks(el)));
      if (!readingNotes) {
        readingNotes = true;
        try {
          for (let read; (read = queuedNotes.shift()); ) read();
        } finally {
          readingNotes = false;
        }
      }
      return { key, label };
    },
  };
  return ctx;
}

/** Headers and footers by relationship id: one read per part, whichever sections share it. */
function headerFooterReader(ctx: DocContext, main: string): (relId: string) => Block[] | undefined {
  const { pkg } = ctx;
  const partCache = new Map<string, Block[]>();
  return (relId) => {
    const rel = pkg.rels(main).get(relId);
    if (!rel || rel.external) return undefined;
    let blocks = partCache.get(rel.target);
    if (!blocks) {
      const root = pkg.xml(rel.target);
      blocks = root ? new StoryReader(ctx, rel.target).blocks(root) : [];
      partCache.set(rel.target, blocks);
    }
    return blocks;
  };
}

/** The body of the main part, section by section, and the document element (for its w:background). */
function readBody(ctx: DocContext, main: string, evenAndOdd: boolean): { sections: Section[]; documentRoot: XmlElement } {
  const { pkg, theme, counts } = ctx;
  const readPart = headerFooterReader(ctx, main);
  const sections: Section[] = [];
  let blocks: Block[] = [];
  const reader = new StoryReader(ctx, main);
  // Paragraphs that hold nothing but a section's properties (see ../section-marks.ts).
  const sectionMarks = new Set<Block>();
  const emit = (block: Block, sectPr?: XmlElement) => {
    blocks.push(block);
    if (sectPr && block.kind === 'paragraph' && block.inlines.length === 0) sectionMarks.add(block);
    if (sectPr) {
      counts.add('sections');
      const section = readSection(sectPr, sections[sections.length - 1], readPart, evenAndOdd, theme);
      section.blocks = blocks;
      sections.push(section);
      blocks = [];
    }
  };
  // The body is read while word/document.xml is parsed, one child at a time, each dropped from the tree
  // once read: the XML already converted is collected young while the model grows (peak memory and
  // collector time on long documents). Only the body's own sectPr (the last section's) is kept.
  let body: XmlElement | undefined;
  let inReader = false;
  const readBodyChild = (el: XmlElement, parent: XmlElement): boolean => {
    if (parent.name !== 'body' || (body && parent !== body)) return true;
    body = parent;
    if (el.name === 'sectPr') return true;
    inReader = true;
    reader.walk({ name: 'body', prefix: '', attrs: body.attrs, children: [el] }, emit);
    inReader = false;
    return false;
  };
  const mainBytes = pkg.readMain(main);
  let documentRoot: XmlElement | undefined;
  try {
    documentRoot = parseXml(mainBytes, { depth: 3, element: readBodyChild });
  } catch (e) {
    if (e instanceof LimitExceeded) throw inPart(main, e);
    if (inReader) throw e;
    throw new ConversionError('corrupt', `word/document.xml is not readable XML (${(e as Error).message}).`);
  }
  // A body with no element children never reached readBodyChild.
  body = child(documentRoot, 'body');
  if (!documentRoot || !body) throw new ConversionError('corrupt', 'word/document.xml has no body.');
  const last = readSection(child(body, 'sectPr'), sections[sections.length - 1], readPart, evenAndOdd, theme);
  last.blocks = blocks;
  sections.push(last);
  dropSectionMarks(sections, (block) => sectionMarks.has(block), true);
  if (sections[0]) withoutEdgeAutoSpacing(sections[0].blocks, true, false);
  return { sections, documentRoot };
}

/** The page colour of w:background (its colour, or its theme colour, tint and shade) when the settings show it. */
function pageColor(background: XmlElement | undefined, shown: boolean, theme: Theme): { pageColor?: string } {
  if (!background || !shown) return {};
  const a = background.attrs;
  const color = resolveColor(theme, a['color'], a['themeColor'], a['themeTint'], a['themeShade']);
  return color && color !== 'auto' && color !== 'FFFFFF' ? { pageColor: color } : {};
}

/** The main document part: the officeDocument relationship of the package, else word/document.xml. */
function mainPart(pkg: Package): string | undefined {
  const target = pkg.relTarget('', '/officeDocument');
  if (target && pkg.has(target)) return target;
  return pkg.has('word/document.xml') ? 'word/document.xml' : undefined;
}

interface NoteSource {
  part?: string;
  byId: Map<string, XmlElement>;
  labels: Map<string, string>;
  format: string;
  next: number;
}

function noteSource(
  src: { target?: string; root?: XmlElement },
  kind: 'footnote' | 'endnote',
  settings: XmlElement | undefined,
  defaultFormat: string,
): NoteSource {
  const byId = new Map<string, XmlElement>();
  for (const n of children(src.root, kind)) {
    const type = n.attrs['type'];
    // Separator and continuation notes are the rule lines above notes, never referenced from text.
    if (type && type !== 'normal') continue;
    if (n.attrs['id'] !== undefined) byId.set(n.attrs['id'], n);
  }
  const pr = child(settings, kind + 'Pr');
  const start = parseInt(attr(child(pr, 'numStart'), 'val') ?? '', 10);
  const source: NoteSource = {
    byId,
    labels: new Map(),
    format: attr(child(pr, 'numFmt'), 'val') ?? defaultFormat,
    next: Number.isFinite(start) ? start : 1,
  };
  if (src.target) source.part = src.target;
  return source;
}
