/**
 * Turns a range of CPs (a section of the main text, a header, a footnote) into model blocks:
 * splits it into paragraphs at paragraph/cell marks, resolves each paragraph's PAP and each run's
 * CHP (style + FKP + piece sprms), interprets the special characters and fields, and hands the
 * paragraphs to the table assembler.
 */
import type { ModelCounts } from '../../model/limits';
import type { Block, Inline, Paragraph, ParagraphProps, RunStyle } from '../../model/index';
import { codePageOfCharset, decodeByte, type CodePage } from '../../../../codecs/binary';
import { applyChpx, complexRunStyle, runStyle, type Chp } from './chp';
import { scriptOf } from '../../../../lib/complex-script';
import type { Fib } from './fib';
import { fieldLink, takenByFields, type DeeperFields, type FieldFrame, type FieldHost } from './fields';
import { findRun, type FkpRun } from './fkp';
import type { FontEntry } from './fonts';
import { mapSymbolChar, type ListTable } from './lists';
import type { DrawingGroup } from '../../../office/officeart';
import { applyPapx, paragraphProps, type Pap } from './pap';
import { floatingPicture, readInlinePicture, type Anchor } from './pictures';
import { floatingShape, groupMembers } from './shapes';
import type { TextStore } from './pieces';
import type { StyleSheet } from './styles';
import { readTap, TableAssembler } from './tables';
import { authorColor, markRevision } from '../../model/revisions';
import type { ProblemSink } from '../../../problems';

export interface DocContext {
  fib: Fib;
  word: Uint8Array;
  data?: Uint8Array;
  text: TextStore;
  chpx: FkpRun[];
  papx: FkpRun[];
  styles: StyleSheet;
  fonts: FontEntry[];
  lists: ListTable;
  /** Code page of Word 6 8-bit text when the font does not say. */
  codePage: CodePage;
  drawings: DrawingGroup;
  /** Footnote/endnote references in the main text by CP. */
  noteRefs: Map<number, { id: string; label: string }>;
  /** Text box stories by shape id (main document and headers). */
  textboxes: Map<number, { start: number; end: number }>;
  /** Told of pictures and other parts the document is read without. */
  problems: ProblemSink;
  /** Runs, rows, cells and pictures read so far: past a limit, LimitExceeded (../limits.ts). */
  counts: ModelCounts;
}

export interface StoryOptions {
  /** Floating shapes anchored in this story, by CP. */
  anchors?: Map<number, Anchor>;
  /** A note body: its 0x02 character shows this label. */
  noteLabel?: string;
  /** The range is a section of the main text: a final 0x0C is the section's last paragraph mark. */
  sectionEnd?: boolean;
}

interface RunProps {
  chp: Chp;
  style: RunStyle;
  /** For its complex-script text (complex-script.ts). */
  complexStyle: RunStyle;
}

const NO_RUN = {};

/** The deepest table nesting read (sprmPItap): Word's 63 in a top-level table. */
const ITAP_MAX = 64;

/** Runs from different FKP entries often format identically: they merge into one text inline. */
function sameStyle(a: RunStyle, b: RunStyle): boolean {
  if (a === b) return true;
  const ka = Object.keys(a) as (keyof RunStyle)[];
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

export class StoryReader {
  private readonly chpCache = new WeakMap<object, Map<number, RunProps>>();
  private readonly linkStyles = new WeakMap<RunStyle, Map<string, RunStyle>>();
  private readonly openTextboxes = new Set<number>();

  constructor(private readonly ctx: DocContext) {}

  read(start: number, end: number, opts: StoryOptions = {}): Block[] {
    const { chars } = this.ctx.text;
    end = Math.min(end, chars.length);
    const blocks: Block[] = [];
    const tables = new TableAssembler(blocks);
    const fields: FieldFrame[] = [];
    const deeper: DeeperFields = { instr: [], inInstr: 0 };
    let cp = start;
    while (cp < end) {
      let e = cp;
      while (e < end) {
        const c = chars[e]!;
        if (c === 13 || c === 7) break;
        if (c === 12 && e === end - 1 && opts.sectionEnd) break;
        e++;
      }
      const markCp = Math.min(e, end - 1);
      const pap = this.papAt(markCp);
      // Word nests tables at most 63 deep in a top-level one; a damaged itap (up to 2^31) is that
      // deep: its cells go into the deepest table, laid out flat past NESTING_MAX (../limits.ts).
      const depth = pap.itap > 0 ? Math.min(pap.itap, ITAP_MAX) : pap.inTable ? 1 : 0;
      const mark = chars[markCp];
      const rowEnd = depth <= 1 ? pap.ttp && mark === 7 : pap.innerTtp;
      if (depth > 0 && rowEnd) {
        this.ctx.counts.add('rows');
        tables.endRow(depth, readTap(pap.tapSprms, this.ctx.fib.word6));
      } else {
        const para = this.paragraph(cp, e, markCp, pap, fields, deeper, opts);
        const endsCell = depth === 1 ? mark === 7 : depth > 1 && pap.innerCell;
        if (endsCell) this.ctx.counts.add('cells');
        tables.paragraph(depth, para, endsCell);
      }
      cp = e + 1;
    }
    tables.finish();
    return blocks;
  }

  /** The paragraph properties of the paragraph whose mark is at markCp. */
  papAt(markCp: number): Pap {
    const { text, papx, styles, lists, fib } = this.ctx;
    const run = findRun(papx, text.fcs[markCp]!);
    const piece = text.pieces[text.pieceOf[markCp]!];
    const istd = run?.istd ?? 0;
    const build = (level?: Uint8Array) => {
      const pap = styles.pap(istd);
      if (level) applyPapx(pap, level, false);
      if (run) applyPapx(pap, run.grpprl, fib.word6);
      if (piece?.grpprl.length) applyPapx(pap, piece.grpprl, fib.word6);
      pap.istd = istd;
      return pap;
    };
    const pap = build();
    if (pap.ilfo > 0) {
      const level = lists.level(pap.ilfo, pap.ilvl);
      if (level?.papx.length) return build(level.papx);
    }
    return pap;
  }

  private runAt(cp: number, istd: number): RunProps {
    const { text, chpx, styles, fib, fonts } = this.ctx;
    const run = findRun(chpx, text.fcs[cp]!) ?? NO_RUN;
    const pieceIndex = text.pieceOf[cp]!;
    let byRun = this.chpCache.get(run);
    if (!byRun) this.chpCache.set(run, (byRun = new Map()));
    const key = pieceIndex * 65536 + istd;
    let props = byRun.get(key);
    if (!props) {
      const base = styles.chp(istd);
      const chp = { ...base };
      const ctx = { word6: fib.word6, styleBase: base, charStyleGrpprls: (i: number) => styles.charGrpprls(i) };
      if (run !== NO_RUN) applyChpx(chp, (run as FkpRun).grpprl, ctx);
      const piece = text.pieces[pieceIndex];
      if (piece?.grpprl.length) applyChpx(chp, piece.grpprl, ctx);
      // A tracked change looks like one (revisions.ts): deletion first, as Word keeps deleted insertions marked both.
      const revision = chp.fRMarkDel ? ['deleted', chp.ibstRMarkDel] as const : chp.fRMarkIns ? ['inserted', chp.ibstRMark] as const : undefined;
      const marked = (style: RunStyle) => (revision ? markRevision(style, revision[0], authorColor(revision[1] ?? 0)) : style);
      props = { chp, style: marked(runStyle(chp, fonts)), complexStyle: marked(complexRunStyle(chp, fonts)) };
      byRun.set(key, props);
    }
    return props;
  }

  private withLink(style: RunStyle, link: string | undefined): RunStyle {
    if (!link) return style;
    let m = this.linkStyles.get(style);
    if (!m) this.linkStyles.set(style, (m = new Map()));
    let s = m.get(link);
    if (!s) m.set(link, (s = { ...style, link }));
    return s;
  }

  private decode(code: number, chp: Chp): string {
    if (!this.ctx.fib.word6) return String.fromCharCode(code);
    const cp = codePageOfCharset(this.ctx.fonts[chp.ftcAscii]?.charset ?? -1) ?? this.ctx.codePage;
    return String.fromCharCode(decodeByte(code, cp));
  }

  private paragraph(start: number, end: number, markCp: number, pap: Pap, fields: FieldFrame[], deeper: DeeperFields, opts: StoryOptions): Paragraph {
    const { chars } = this.ctx.text;
    const inlines: Inline[] = [];
    const { counts } = this.ctx;
    const push = (inline: Inline) => {
      const last = inlines[inlines.length - 1];
      if (inline.kind === 'text' && last?.kind === 'text' && sameStyle(last.style, inline.style)) last.text += inline.text;
      else {
        counts.add('runs');
        if (inline.kind === 'image' || (inline.kind === 'shape' && inline.picture)) counts.add('pictures');
        inlines.push(inline);
      }
    };
    const host: FieldHost = { data: this.ctx.data, push, decode: (code, chp) => this.decode(code, chp) };

    // Whether the last letter was complex-script: digits, spaces and punctuation take its formatting.
    let complex = pap.bidi;
    for (let cp = start; cp < end; cp++) {
      const code = chars[cp]!;
      const { chp, style: ownStyle, complexStyle } = this.runAt(cp, pap.istd);
      const ch = code >= 0x20 && !chp.fSpec ? this.decode(code, chp) : '';
      complex = scriptOf(ch) ?? complex;
      const style = complex ? complexStyle : ownStyle;
      // Tracked deletions are shown (struck through, runAt); deleted objects and control marks are dropped.
      if (chp.fRMarkDel && (code < 0x20 || chp.fSpec)) continue;
      if (takenByFields(code, chp, style, fields, deeper, host)) continue;
      const s = this.withLink(style, fieldLink(fields));
      if (chp.fSpec) this.special(code, cp, chp, s, opts, push);
      else this.character(code, ch, s, push);
    }
    return { kind: 'paragraph', props: this.paragraphPropsAt(markCp, pap), inlines };
  }

  /** An ordinary character: text, or the tab, break or hyphen a control character stands for. */
  private character(code: number, ch: string, s: RunStyle, push: (i: Inline) => void): void {
    switch (code) {
      case 0x09: push({ kind: 'tab', style: s }); break;
      case 0x0b: push({ kind: 'break', type: 'line' }); break;
      case 0x0c: push({ kind: 'break', type: 'page' }); break;
      case 0x0e: push({ kind: 'break', type: 'column' }); break;
      case 0x1e: push({ kind: 'text', text: '-', style: s }); break;
      case 0x1f: break;
      default: {
        if (code < 0x20) break;
        let text = ch;
        if (code >= 0xf000 && code <= 0xf0ff) {
          const mapped = mapSymbolChar(code);
          if (mapped) text = mapped;
        }
        push({ kind: 'text', text, style: s });
      }
    }
  }

  /** The paragraph's properties: its PAP, style name, outline level, mark formatting and list label. */
  private paragraphPropsAt(markCp: number, pap: Pap): ParagraphProps {
    const mark = this.runAt(markCp, pap.istd);
    const props = paragraphProps(pap);
    const styleName = this.ctx.styles.name(pap.istd);
    if (styleName) props.styleId = styleName;
    const heading = this.ctx.styles.headingLevel(pap.istd);
    if (props.outlineLevel === undefined && heading !== undefined) props.outlineLevel = heading;
    props.markStyle = mark.style;
    if (pap.ilfo > 0) {
      const label = this.ctx.lists.nextLabel(pap.ilfo, pap.ilvl);
      const level = this.ctx.lists.level(pap.ilfo, pap.ilvl);
      if (label !== undefined && level) {
        const chp = { ...mark.chp, vanish: false, iss: 0, kul: 0 };
        const base = this.ctx.styles.chp(pap.istd);
        applyChpx(chp, level.chpx, { word6: false, styleBase: base, charStyleGrpprls: () => [] });
        const style = runStyle(chp, this.ctx.fonts);
        // Symbol-font bullets were mapped to Unicode: the symbol font would show them wrongly.
        if ([...level.text].some((c) => c.charCodeAt(0) >= 0xf000)) (delete style.font, delete style.fontOther);
        const suffix = level.follow === 1 ? 'space' : level.follow === 2 ? 'nothing' : 'tab';
        if (!(chp.vanish || label === '')) props.list = { label, style, suffix };
      }
    }
    return props;
  }

  /** The text of the text box shape `spid` (its story), if it has one. */
  private textboxStory(spid: number, opts: StoryOptions): Block[] | undefined {
    const story = this.ctx.textboxes.get(spid);
    // Guard against a text box whose story anchors itself.
    if (!story || this.openTextboxes.has(spid)) return undefined;
    this.openTextboxes.add(spid);
    const blocks = this.read(story.start, story.end, { anchors: opts.anchors });
    this.openTextboxes.delete(spid);
    // Trailing empty paragraphs (at least the story's own final mark) would only add height.
    for (let last = blocks[blocks.length - 1]; blocks.length > 1 && last?.kind === 'paragraph' && !last.inlines.length && !last.props.list; last = blocks[blocks.length - 1]) blocks.pop();
    return blocks;
  }

  /** Characters with fSpec: pictures, drawn objects, note references, symbols. */
  private special(code: number, cp: number, chp: Chp, style: RunStyle, opts: StoryOptions, push: (i: Inline) => void): void {
    const { ctx } = this;
    switch (code) {
      case 0x01: {
        if (chp.fData || chp.fcPic === undefined) return;
        const pic = readInlinePicture(ctx.data, chp.fcPic, ctx.word);
        if (pic) push(pic);
        else if (!ctx.data) ctx.problems({ part: `picture at character ${cp}`, reason: 'the Data stream that holds the document\'s pictures is missing: left out' });
        else ctx.problems({ part: `picture at character ${cp}`, reason: `its record at ${chp.fcPic} of the Data stream is damaged or empty: left out` });
        return;
      }
      case 0x08: {
        const anchor = opts.anchors?.get(cp);
        if (!anchor) return;
        const pic = floatingPicture(anchor, ctx.drawings);
        if (pic) return push(pic);
        const blocks = this.textboxStory(anchor.spid, opts);
        const info = ctx.drawings.shapes.get(anchor.spid);
        if (info?.members?.length && info.groupSpace && !blocks) {
          const members = groupMembers(anchor, info, ctx.drawings, (spid) => this.textboxStory(spid, opts));
          if (members.length) return members.forEach(push);
        }
        const shape = floatingShape(anchor, info, blocks, info?.order ?? 0);
        if (shape) return push(shape);
        if (blocks) {
          const height = (anchor.bottom - anchor.top) / 20;
          push({ kind: 'textbox', blocks, width: (anchor.right - anchor.left) / 20, height: height > 0 ? height : undefined, floating: anchor.placement });
        }
        return;
      }
      case 0x02: {
        if (opts.noteLabel !== undefined) {
          push({ kind: 'text', text: opts.noteLabel, style });
          return;
        }
        const ref = ctx.noteRefs.get(cp);
        if (ref) push({ kind: 'noteRef', id: ref.id, label: ref.label, style });
        return;
      }
      case 0x28: {
        if (!chp.symbol) return;
        const mapped = mapSymbolChar(chp.symbol.char) ?? mapSymbolChar(chp.symbol.char | 0xf000);
        const font = ctx.fonts[chp.symbol.ftc]?.name;
        if (mapped) push({ kind: 'text', text: mapped, style });
        else push({ kind: 'text', text: String.fromCharCode(chp.symbol.char), style: font ? { ...style, font } : style });
        return;
      }
      case 0x09: push({ kind: 'tab', style }); return;
      case 0x0c: push({ kind: 'break', type: 'page' }); return;
      default:
        // 0x03/0x04 note separators, 0x05 annotation references and the like draw nothing.
        return;
    }
  }
}
