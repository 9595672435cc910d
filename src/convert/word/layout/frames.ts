/**
 * Text frames (ParagraphFrame) in headers and footers become floating boxes drawn where they are
 * placed, taking no room: the framed page number of Word's "Insert page numbers" sits at the
 * margin's right (or centre) beside the header's text, not on a line of its own above it.
 * Consecutive paragraphs with the same frame are one box, anchored in the next paragraph that is
 * not framed. Frames in the body stay in the text's flow: MuPDF cannot wrap text around them, and
 * a frame that text flows beside is better in line than over the text.
 */
import type { Block, FloatingPlacement, Inline, Paragraph, ParagraphFrame, Shape, WordDocument } from '../model/index';
import type { InlineContext } from './inline-context';
import { resolveRun } from '../rules/runs';
import type { FontBook } from '../../../layout/text/font-book';

type Measure = Pick<InlineContext, 'defaultFont' | 'defaultSize'> & { fonts: Pick<FontBook, 'measure'> };

/** Fields as wide as this when a frame is sized to its text (a page number of up to three digits). */
const FIELD_TEXT = '999';
/** Line height for a frame's own height, as a share of the font size (Word's single spacing, about). */
const LINE = 1.2;
const NO_INSETS = { left: 0, top: 0, right: 0, bottom: 0 };

/** The document with the frames of its headers and footers as floating boxes (the same object when there are none). */
export function headerFramesAsFloatingBoxes(model: WordDocument, m: Measure): WordDocument {
  // A header shared by sections stays one array (areas are measured once per array).
  const done = new Map<Block[], Block[]>();
  const convert = (blocks: Block[] | undefined, pageWidth: number) => {
    if (!blocks) return blocks;
    let out = done.get(blocks);
    if (!out) done.set(blocks, (out = framesAsFloatingBoxes(blocks, pageWidth, m)));
    return out;
  };
  let changed = false;
  const sections = model.sections.map((s) => {
    const w = s.page.width;
    const headers = { default: convert(s.headers.default, w), first: convert(s.headers.first, w), even: convert(s.headers.even, w) };
    const footers = { default: convert(s.footers.default, w), first: convert(s.footers.first, w), even: convert(s.footers.even, w) };
    const same = (['default', 'first', 'even'] as const).every((k) => headers[k] === s.headers[k] && footers[k] === s.footers[k]);
    if (same) return s;
    changed = true;
    return { ...s, headers: withoutUndefined(headers), footers: withoutUndefined(footers) };
  });
  return changed ? { ...model, sections } : model;
}

const withoutUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** A header's or footer's blocks with their frames as floating boxes (the same array when there are none). */
export function framesAsFloatingBoxes(blocks: Block[], pageWidth: number, m: Measure): Block[] {
  if (!blocks.some((b) => b.kind === 'paragraph' && isFloatingFrame(b.props.frame))) return blocks;
  const out: Block[] = [];
  let pending: Shape[] = [];
  for (let i = 0; i < blocks.length; ) {
    const b = blocks[i]!;
    const frame = b.kind === 'paragraph' ? b.props.frame : undefined;
    if (!isFloatingFrame(frame)) {
      out.push(pending.length && b.kind === 'paragraph' ? { ...b, inlines: [...pending, ...b.inlines] } : b);
      if (b.kind === 'paragraph') pending = [];
      i++;
      continue;
    }
    // The frame's paragraphs: those after it with the same frame.
    const group: Paragraph[] = [];
    for (; i < blocks.length; i++) {
      const p = blocks[i]!;
      if (p.kind !== 'paragraph' || !sameFrame(p.props.frame, frame)) break;
      group.push(p);
    }
    pending.push(frameBox(group, frame, pageWidth, m));
  }
  // A frame after the last paragraph: anchored in an empty one of its own.
  if (pending.length) out.push({ kind: 'paragraph', props: {}, inlines: pending });
  return out;
}

function isFloatingFrame(frame: ParagraphFrame | undefined): frame is ParagraphFrame {
  return !!frame && !frame.dropCap;
}

const sameFrame = (a: ParagraphFrame | undefined, b: ParagraphFrame): boolean =>
  !!a && a.width === b.width && a.height === b.height && a.x === b.x && a.y === b.y && a.xAlign === b.xAlign && a.yAlign === b.yAlign && a.hAnchor === b.hAnchor && a.vAnchor === b.vAnchor && a.wrap === b.wrap;

function frameBox(group: Paragraph[], frame: ParagraphFrame, pageWidth: number, m: Measure): Shape {
  const alignX = frame.xAlign === 'inside' ? 'left' : frame.xAlign === 'outside' ? 'right' : frame.xAlign;
  const alignY = frame.yAlign === 'inside' ? 'top' : frame.yAlign === 'outside' ? 'bottom' : frame.yAlign;
  const floating: FloatingPlacement = {
    x: frame.x,
    y: frame.y,
    relativeX: frame.hAnchor === 'text' ? 'column' : frame.hAnchor,
    relativeY: frame.vAnchor === 'text' ? 'paragraph' : frame.vAnchor,
    wrap: 'none',
    ...(alignX ? { alignX } : {}),
    ...(alignY ? { alignY } : {}),
  };
  const sized = frame.width !== undefined;
  const width = frame.width ?? Math.min(pageWidth, Math.max(...group.map((p) => textWidth(p, m))) + 1);
  // A box as wide as its text shows it at the side it is aligned to whatever the number's width:
  // its left-aligned paragraphs take the frame's alignment.
  const blocks = group.map((p): Paragraph => {
    const props = { ...p.props, frame: undefined };
    if (!sized && (!props.align || props.align === 'left') && (alignX === 'right' || alignX === 'center')) props.align = alignX;
    return { ...p, props };
  });
  const own = group.reduce((h, p) => h + textHeight(p, width, m), 0);
  const height = frame.height !== undefined && frame.heightRule === 'exact' ? frame.height : Math.max(own, frame.height ?? 0);
  return { kind: 'shape', geometry: 'rect', width, height, floating, blocks, textInsets: NO_INSETS };
}

/** The width of a paragraph's text on one line, its indents and list label included. */
function textWidth(p: Paragraph, m: Measure): number {
  let width = Math.max(0, p.props.indentLeft ?? 0) + Math.max(0, p.props.indentRight ?? 0);
  const add = (text: string, style: Parameters<typeof resolveRun>[0]) => {
    const run = resolveRun(style, m);
    width += m.fonts.measure(text, run.family, run.bold, run.italic, run.size);
  };
  if (p.props.list) add(`${p.props.list.label} `, p.props.list.style);
  for (const it of p.inlines as Inline[]) {
    if (it.kind === 'text' && !it.style.hidden) add(it.text, it.style);
    else if (it.kind === 'field') add(FIELD_TEXT, it.style);
  }
  return width;
}

/** About the height of a paragraph laid out `width` wide. */
function textHeight(p: Paragraph, width: number, m: Measure): number {
  let size = resolveRun(p.props.markStyle ?? {}, m).size;
  for (const it of p.inlines) if (it.kind === 'text' || it.kind === 'field') size = Math.max(size, resolveRun(it.style, m).size);
  const lines = Math.max(1, Math.ceil(textWidth(p, m) / Math.max(width, 1)));
  return (p.props.spaceBefore ?? 0) + lines * size * LINE + (p.props.spaceAfter ?? 0);
}
