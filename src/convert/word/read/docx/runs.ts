/**
 * Inline content of a paragraph: runs and their text, tabs, breaks, symbols, pictures, note
 * references, fields, hyperlinks, and the wrappers Word nests runs in (smart tags, content controls,
 * tracked insertions...).
 *
 * Tracked changes are shown as LibreOffice prints them (revisions.ts): insertions underlined,
 * deletions struck through, in their author's colour. Moved-from text, comments and proofing marks
 * are dropped.
 */
import type { Inline, RunStyle } from '../../model/index';
import { child, textOf, type XmlElement } from '../../../../codecs/xml';
import { writeMath } from './math';
import { readDrawing, readVml, type DrawingContext } from './drawing';
import { classifyInstr } from './fields';
import { finalRunStyle, mergeRun, onOff, parseRPr, type RunProps } from './props';
import { scriptStretches } from '../../../../lib/complex-script';
import { markRevision, type RevisionKind } from '../../model/revisions';
import type { StoryReader } from './story';
import { chooseAlternate } from '../../../office/alternate';
import { isSymbolFont, mapSymbolChar, mapSymbolText, hasPrivateUse } from './symbols';

interface Scope {
  base: RunProps;
  link?: string;
  /** Inside a tracked insertion or deletion: how its runs look (revisions.ts). */
  revision?: { kind: RevisionKind; color: string };
}

class InlineBuilder {
  readonly out: Inline[] = [];

  constructor(private readonly reader: StoryReader) {}

  get suppressed(): boolean {
    return this.reader.fields.suppressed;
  }

  text(text: string, style: RunStyle): void {
    if (!text || this.suppressed) return;
    const last = this.out[this.out.length - 1];
    // Interned styles compare by identity: adjacent runs with the same formatting become one inline.
    if (last && last.kind === 'text' && last.style === style) last.text += text;
    else {
      this.reader.ctx.counts.add('runs');
      this.out.push({ kind: 'text', text, style });
    }
  }

  push(inline: Inline): void {
    if (this.suppressed) return;
    const counts = this.reader.ctx.counts;
    counts.add('runs');
    if (inline.kind === 'image' || (inline.kind === 'shape' && (inline.picture || inline.members?.some((m) => m.picture)))) counts.add('pictures');
    this.out.push(inline);
  }
}

export function readInlines(p: XmlElement, base: RunProps, reader: StoryReader): Inline[] {
  const b = new InlineBuilder(reader);
  walk(p, { base }, b, reader);
  return b.out;
}

function walk(container: XmlElement, scope: Scope, b: InlineBuilder, reader: StoryReader): void {
  for (const el of container.children) {
    if (typeof el === 'string') continue;
    switch (el.name) {
      case 'r':
        run(el, scope, b, reader);
        break;
      case 'hyperlink': {
        const relId = el.attrs['r:id'];
        const rel = relId ? reader.ctx.pkg.rels(reader.part).get(relId) : undefined;
        const anchor = el.attrs['anchor'];
        const link = rel ? rel.target + (anchor ? '#' + anchor : '') : anchor ? '#' + anchor : scope.link;
        walk(el, link ? { ...scope, link } : scope, b, reader);
        break;
      }
      case 'fldSimple': {
        const info = classifyInstr(el.attrs['instr'] ?? '');
        if (info.page) {
          const r = child(el, 'r');
          b.push({ kind: 'field', field: info.page, style: styleOf(r, scope, reader) });
        } else walk(el, info.link ? { ...scope, link: info.link } : scope, b, reader);
        break;
      }
      case 'sdt': {
        const content = child(el, 'sdtContent');
        if (content) walk(content, scope, b, reader);
        break;
      }
      case 'del':
      case 'ins':
        walk(el, { ...scope, revision: { kind: el.name === 'del' ? 'deleted' : 'inserted', color: reader.ctx.revisionAuthors.colorOf(el.attrs['author']) } }, b, reader);
        break;
      case 'smartTag':
      case 'customXml':
      case 'moveTo':
      case 'dir':
      case 'bdo':
      case 'sdtContent':
        walk(el, scope, b, reader);
        break;
      case 'AlternateContent': {
        const chosen = chooseAlternate(el);
        if (chosen) walk(chosen, scope, b, reader);
        break;
      }
      case 'oMath':
      case 'oMathPara':
        math(el, scope, b, reader);
        break;
      // pPr, bookmarks, comment ranges and references, proofErr, permStart, moveFrom: nothing shown.
    }
  }
}

/** OMML: the equation written linearly (math.ts), its scripts raised and lowered. */
function math(el: XmlElement, scope: Scope, b: InlineBuilder, reader: StoryReader): void {
  const styles = new Map<RunStyle['vertAlign'], RunStyle>();
  writeMath(el, (text, script) => {
    if (!text) return;
    let style = styles.get(script);
    if (!style) styles.set(script, (style = reader.ctx.intern(finalRunStyle(script ? { ...scope.base, vertAlign: script } : scope.base))));
    b.text(text, style);
  });
}

function runProps(r: XmlElement | undefined, scope: Scope, reader: StoryReader): RunProps {
  const direct = parseRPr(child(r, 'rPr'), reader.ctx.theme);
  let p = mergeRun(mergeRun(scope.base, reader.ctx.styles.characterStyle(direct.rStyle)), direct);
  if (scope.link || reader.fields.link) p = { ...p, link: scope.link ?? reader.fields.link };
  if (scope.revision) p = markRevision(p, scope.revision.kind, scope.revision.color);
  return p;
}

function styleOf(r: XmlElement | undefined, scope: Scope, reader: StoryReader): RunStyle {
  return reader.ctx.intern(finalRunStyle(runProps(r, scope, reader)));
}

/**
 * The run being read: its properties, and its style and the style of its complex-script text
 * (complex-script.ts), each made when first needed: most runs need one of the two, once.
 */
class RunStyles {
  private plain: RunStyle | undefined;
  private complex: RunStyle | undefined;
  private link: string | undefined;

  constructor(readonly props: RunProps, private readonly reader: StoryReader) {
    this.link = props.link;
  }

  style(): RunStyle {
    return (this.plain ??= this.reader.ctx.intern(finalRunStyle(this.props, false, this.link)));
  }

  complexStyle(): RunStyle {
    return (this.complex ??= this.reader.ctx.intern(finalRunStyle(this.props, true, this.link)));
  }

  /** A HYPERLINK field's result starts: the run's later text carries its link. */
  relink(link: string): void {
    this.link = link;
    this.plain = this.complex = undefined;
  }
}

function run(r: XmlElement, scope: Scope, b: InlineBuilder, reader: StoryReader): void {
  const props = runProps(r, scope, reader);
  const styles = new RunStyles(props, reader);
  const style = () => styles.style();
  const drawingCtx: DrawingContext = {
    pkg: reader.ctx.pkg,
    part: reader.part,
    blocksOf: (t) => reader.blocks(t),
    theme: reader.ctx.theme,
  };
  for (const el of r.children) {
    if (typeof el === 'string') continue;
    switch (el.name) {
      case 't':
      case 'delText':
        runText(textOf(el), styles, scope, b, reader);
        break;
      case 'tab':
      case 'ptab':
        b.push({ kind: 'tab', style: style() });
        break;
      case 'br': {
        const type = el.attrs['type'];
        b.push({ kind: 'break', type: type === 'page' ? 'page' : type === 'column' ? 'column' : 'line' });
        break;
      }
      case 'cr':
        b.push({ kind: 'break', type: 'line' });
        break;
      case 'noBreakHyphen':
        b.text('\u2011', style());
        break;
      case 'sym': {
        const code = parseInt(el.attrs['char'] ?? '', 16);
        if (Number.isFinite(code)) b.text(mapSymbolChar(code, el.attrs['font']), isSymbolFont(el.attrs['font']) ? plainFontStyle(props, scope, reader) : style());
        break;
      }
      case 'fldChar':
        fieldChar(el, styles, b, reader.fields);
        break;
      case 'instrText':
        reader.fields.instrText(textOf(el));
        break;
      case 'drawing':
        for (const i of readDrawing(el, drawingCtx)) b.push(i);
        break;
      case 'pict':
      case 'object':
        for (const i of readVml(el, drawingCtx)) b.push(i);
        break;
      case 'AlternateContent': {
        // Inside a run, the chosen branch holds run content (w:drawing, w:pict): read it as a run.
        const chosen = chooseAlternate(el);
        if (chosen) run({ ...r, children: [child(r, 'rPr'), ...chosen.children].filter((c) => c !== undefined) }, scope, b, reader);
        break;
      }
      case 'footnoteReference':
      case 'endnoteReference': {
        const kind = el.name === 'footnoteReference' ? 'footnote' : 'endnote';
        const ref = reader.ctx.noteRef(kind, el.attrs['id'] ?? '');
        if (ref) b.push({ kind: 'noteRef', id: ref.key, label: onOff(el.attrs['customMarkFollows']) ? '' : ref.label, style: style() });
        break;
      }
      case 'footnoteRef':
      case 'endnoteRef':
        if (reader.noteLabel) b.text(reader.noteLabel, style());
        break;
      case 'sdt': {
        // Checkbox content controls (w14:checkbox) show their current glyph as text already.
        const content = child(el, 'sdtContent');
        if (content) walk(content, scope, b, reader);
        break;
      }
      // rPr, softHyphen (drop), lastRenderedPageBreak, annotationRef, commentReference, separators.
    }
  }
}

/** w:t, w:delText: the text, its complex-script stretches in their own style. */
function runText(text: string, styles: RunStyles, scope: Scope, b: InlineBuilder, reader: StoryReader): void {
  const { props } = styles;
  const symbolFont = isSymbolFont(props.font);
  // Text in a symbol font (or private-use characters) has no glyphs in our fonts.
  if (symbolFont || hasPrivateUse(text)) text = mapSymbolText(text, props.font);
  if (symbolFont) b.text(text, plainFontStyle(props, scope, reader));
  else for (const part of scriptStretches(text)) b.text(part.text, part.complex ? styles.complexStyle() : styles.style());
}

/** w:fldChar: a complex field begins (a form check box with its state), shows its result, or ends (fields.ts). */
function fieldChar(el: XmlElement, styles: RunStyles, b: InlineBuilder, fields: StoryReader['fields']): void {
  const type = el.attrs['fldCharType'];
  if (type === 'begin') {
    const cb = child(child(el, 'ffData'), 'checkBox');
    if (cb) {
      const checked = child(cb, 'checked') ?? child(cb, 'default');
      fields.begin(checked ? onOff(checked.attrs['val'] ?? '1') : false);
    } else fields.begin();
  } else if (type === 'separate') {
    // separate() has already checked visibility; the field's own frame now suppresses its stale result.
    const shown = fields.separate();
    if (shown.page) b.out.push({ kind: 'field', field: shown.page, style: styles.style() });
    if (shown.text) b.out.push({ kind: 'text', text: shown.text, style: styles.style() });
    // A HYPERLINK field's result starts now: later text in this run carries the link.
    if (fields.link && !styles.props.link) styles.relink(fields.link);
  } else if (type === 'end') {
    const done = fields.end();
    if (done.page) b.push({ kind: 'field', field: done.page, style: styles.style() });
    if (done.text) b.text(done.text, styles.style());
  }
}

/** Style for mapped symbol characters: the paragraph's text font instead of Symbol/Wingdings. */
function plainFontStyle(props: RunProps, scope: Scope, reader: StoryReader): RunStyle {
  const font = !isSymbolFont(scope.base.font) ? scope.base.font : reader.ctx.styles.docRun.font;
  const p: RunProps = { ...props };
  if (font) p.font = font;
  delete p.fontOther;
  return reader.ctx.intern(finalRunStyle(p));
}
