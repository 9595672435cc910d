/**
 * A PPTX deck as the slide model: the slide size (p:sldSz), the visible slides in order (show="0"
 * skipped), and each slide's shapes read by the Office parts' DrawingML shape-tree reader over the
 * master's and the layout's own shapes, under the slide's. A placeholder takes what it leaves out
 * from its layout's placeholder of the same idx (else type), then the master's: its place and size
 * (a:xfrm), its body's insets and anchor (a:bodyPr), and its first level's text style (the
 * placeholder's lstStyle, else the master's title, body or other style in p:txStyles). The
 * background is the slide's, the layout's or the master's p:bg, its solid fill through the theme.
 */
import { attr, child, children, descendant, elements, type XmlElement } from '../../../codecs/xml';
import { readChart, themePalette } from '../../office/chart/read';
import { checkContainer, Package } from '../../office/package';
import { EMPTY_THEME, parseTheme, type Theme } from '../../office/theme';
import { colorIn, gradientOf, shapeFill } from '../../office/drawing-color';
import { partPicture } from '../../office/drawingml/picture';
import { framedShapes } from '../../office/drawingml/shape-tree';
import { tableShapes } from './table';
import { el, frameDrawing } from './frames';
import { mergedLevel } from './level-merge';
import { listDefaults, withListDefaults } from './list-defaults';
import { PART_BUDGET } from './part-budget';
import { deckTableStyles } from './table-style';
import { pptxFontRefs } from './embedded-fonts';
import { ConversionError } from '../../errors';
import { ignoreProblems, type ProblemSink } from '../../problems';
import type { Deck, Slide } from '../model';

/** PowerPoint's default slide (10 × 7.5 in) where p:sldSz says nothing. */
const DEFAULT_SIZE = { cx: 9_144_000, cy: 6_858_000 };
/** Slides a deck prints at most, and shapes a slide keeps. */
export const SLIDES_MAX = 2_000;
const SHAPES_MAX = 2_000;
/** Text of a slide's shapes kept at most, all together. */
const SLIDE_TEXT_MAX = 262_144;
/** PowerPoint's text size where no style says (a new text box's 18 pt). */
const TEXT_SIZE = 18;
const EMU_PER_POINT = 12_700;


/** A part's shape tree (p:cSld/p:spTree) and the part its pictures are related from. */
interface Part {
  path: string;
  root: XmlElement | undefined;
}

const spTree = (part: Part) => child(child(part.root, 'cSld'), 'spTree');
const placeholderOf = (shape: XmlElement) => child(child(child(shape, 'nvSpPr') ?? child(shape, 'nvPicPr'), 'nvPr'), 'ph');

/** A part's placeholders by "idx:N" and "type:T" (a placeholder with no type is a body). */
function placeholders(part: Part): Map<string, XmlElement> {
  const out = new Map<string, XmlElement>();
  for (const shape of elements(spTree(part))) {
    const ph = placeholderOf(shape);
    if (!ph) continue;
    if (attr(ph, 'idx') !== undefined && !out.has(`idx:${attr(ph, 'idx')}`)) out.set(`idx:${attr(ph, 'idx')}`, shape);
    const type = attr(ph, 'type') ?? 'body';
    if (!out.has(`type:${type}`)) out.set(`type:${type}`, shape);
  }
  return out;
}

const TITLES = new Set(['title', 'ctrTitle']);
const BODIES = new Set(['body', 'subTitle', 'obj']);

/** Where a placeholder inherits from: its layout's and master's placeholders, and the master's text styles. */
interface Inherited {
  layout: Map<string, XmlElement>;
  master: Map<string, XmlElement>;
  txStyles: XmlElement | undefined;
}

function inheritedFor(ph: XmlElement, from: Inherited): XmlElement[] {
  const type = attr(ph, 'type') ?? 'body';
  const byIdx = attr(ph, 'idx') !== undefined ? from.layout.get(`idx:${attr(ph, 'idx')}`) : undefined;
  const layout = byIdx ?? from.layout.get(`type:${type}`);
  const layoutType = layout ? (attr(placeholderOf(layout), 'type') ?? 'body') : type;
  const master = from.master.get(`type:${layoutType}`) ?? from.master.get(`type:${TITLES.has(layoutType) ? 'title' : 'body'}`);
  return [layout, master].filter((s): s is XmlElement => !!s);
}

/** The master's text style a placeholder of `type` starts from (p:titleStyle, p:bodyStyle, p:otherStyle). */
const masterStyle = (type: string, txStyles: XmlElement | undefined) => child(txStyles, TITLES.has(type) ? 'titleStyle' : BODIES.has(type) ? 'bodyStyle' : 'otherStyle');

/** The slide's placeholder with what it leaves out taken from those it inherits from. */
function resolvedPlaceholder(shape: XmlElement, from: Inherited): XmlElement {
  const ph = placeholderOf(shape)!;
  const chain = inheritedFor(ph, from);
  const spPr = child(shape, 'spPr') ?? el('spPr', {});
  const xfrm = child(spPr, 'xfrm') ?? chain.map((s) => child(child(s, 'spPr'), 'xfrm')).find(Boolean);
  const txBody = child(shape, 'txBody');
  const bodyPrs = [...chain].reverse().map((s) => child(child(s, 'txBody'), 'bodyPr')?.attrs ?? {});
  // Attributes from the nearest that gives them; children (autofit) the slide's own.
  const bodyPr = el('bodyPr', Object.assign({}, ...bodyPrs, child(txBody, 'bodyPr')?.attrs ?? {}), child(txBody, 'bodyPr')?.children ?? []);
  // Each list level merged from the slide's own list style, the layout's and master's placeholders', the master's text style (level-merge.ts).
  const sources = [txBody, ...chain.map((s) => child(s, 'txBody'))].map((t) => child(t, 'lstStyle'));
  const levels = [1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) => mergedLevel([...sources, masterStyle(attr(ph, 'type') ?? 'body', from.txStyles)].map((l) => child(l, `lvl${n}pPr`))) ?? []);
  const body = txBody && el('txBody', {}, [bodyPr, el('lstStyle', {}, levels), ...elements(txBody).filter((c) => c.name !== 'bodyPr' && c.name !== 'lstStyle')]);
  const kids = shape.children.map((c) => (typeof c === 'string' ? c : c.name === 'spPr' ? el('spPr', spPr.attrs, [...(xfrm && !child(spPr, 'xfrm') ? [xfrm] : []), ...spPr.children]) : c.name === 'txBody' && body ? body : c));
  return { ...shape, children: child(shape, 'spPr') ? kids : [el('spPr', {}, xfrm ? [xfrm] : []), ...kids] };
}

/** A part's shapes as one group over the slide (the slide's own space: off 0, extent the slide). */
function slideGroup(members: XmlElement[], size: { cx: number; cy: number }): XmlElement {
  const ext = { cx: String(size.cx), cy: String(size.cy) };
  const xfrm = el('xfrm', {}, [el('off', { x: '0', y: '0' }), el('ext', ext), el('chOff', { x: '0', y: '0' }), el('chExt', ext)]);
  return el('grpSp', {}, [el('grpSpPr', {}, [xfrm]), ...members]);
}

/** Charts a slide keeps at most. */
const CHARTS_MAX = 50;

/** A chart frame's chart (its c:chart's part, read from the values it caches) in its box on the slide. */
function chartOf(pkg: Package, part: string, frame: XmlElement, palette: string[] | undefined): NonNullable<Slide['charts']>[number] | undefined {
  const ref = descendant(child(frame, 'graphic'), 'chart');
  const rel = ref && pkg.rels(part).get(attr(ref, 'r:id') ?? '');
  if (!rel || rel.external) return undefined;
  const xml = pkg.read(rel.target);
  const chart = xml && readChart(xml, palette);
  if (!chart) return undefined;
  const xfrm = child(frame, 'xfrm');
  const n = (e: XmlElement | undefined, a: string) => Math.max(0, Math.min(Number(attr(e, a) ?? 0) || 0, 2e10)) / EMU_PER_POINT;
  const box = { x: n(child(xfrm, 'off'), 'x'), y: n(child(xfrm, 'off'), 'y'), width: n(child(xfrm, 'ext'), 'cx'), height: n(child(xfrm, 'ext'), 'cy') };
  return box.width >= 1 && box.height >= 1 ? { box, chart } : undefined;
}

/** The first background of the slide, layout and master: its picture (a:blipFill, stretched over the slide), its fill's colour, or its theme background reference's. */
function background(pkg: Package, parts: Part[], theme: Theme): Pick<Slide, 'background' | 'backgroundPicture' | 'backgroundGradient'> {
  for (const part of parts) {
    const bg = child(child(part.root, 'cSld'), 'bg');
    if (!bg) continue;
    const bgPr = child(bg, 'bgPr');
    const blip = child(child(bgPr, 'blipFill'), 'blip');
    const picture = blip ? partPicture(pkg, part.path, attr(blip, 'r:embed')) : undefined;
    if (picture) return { backgroundPicture: picture };
    // Solid, gradient (as its stops' average, as shapes' are) or pattern (its foreground) fill; else the theme's background reference.
    const color = bgPr ? (shapeFill(bgPr, undefined, theme) ?? undefined) : colorIn(child(bg, 'bgRef'), theme);
    const gradient = gradientOf(bgPr, theme);
    return color ? { background: color, ...(gradient ? { backgroundGradient: gradient } : {}) } : {};
  }
  return {};
}

/** A hyperlink's target when it is a web or mail address (slide jumps and other actions are not kept). */
function webLink(pkg: Package, from: string, id: string): string | undefined {
  const rel = pkg.rels(from).get(id);
  return rel?.external && /^(https?:|mailto:)/i.test(rel.target) ? rel.target : undefined;
}

/** Slides, layouts, masters and themes parsed once for the deck, not once per slide that names them. */
const parsed = new WeakMap<Package, Map<string, XmlElement | undefined>>();

/** The part a relationship of `type` (its last segment) names from `from`. */
function related(pkg: Package, from: string, type: string): Part | undefined {
  const rel = [...pkg.rels(from).values()].find((r) => !r.external && r.type.endsWith(`/${type}`));
  return rel && { path: rel.target, root: partXml(pkg, rel.target) };
}

/** A part's XML, parsed once for the deck within the part budget (a deck may name one slide part many times). */
function partXml(pkg: Package, path: string): XmlElement | undefined {
  let cache = parsed.get(pkg);
  if (!cache) parsed.set(pkg, (cache = new Map()));
  if (!cache.has(path)) cache.set(path, pkg.xml(path, undefined, PART_BUDGET));
  return cache.get(path);
}

function readSlide(pkg: Package, slide: Part, size: { cx: number; cy: number }, number: number, defaultTextStyle: XmlElement | undefined): Slide {
  const layout = related(pkg, slide.path, 'slideLayout') ?? { path: '', root: undefined };
  const master = related(pkg, layout.path, 'slideMaster') ?? { path: '', root: undefined };
  const themePart = master.path ? related(pkg, master.path, 'theme') : undefined;
  const theme = themePart?.root ? parseTheme(themePart.root) : EMPTY_THEME;
  const from: Inherited = { layout: placeholders(layout), master: placeholders(master), txStyles: child(master.root, 'txStyles') };
  const defaults = listDefaults(child(from.txStyles, 'otherStyle'), defaultTextStyle);
  const text = { left: SLIDE_TEXT_MAX };
  const shapes: Slide['shapes'] = [];
  const charts: NonNullable<Slide['charts']> = [];
  const palette = themePart ? themePalette(pkg.read(themePart.path)) : undefined;
  // The master's and layout's own shapes (logos, rules) under the slide's; placeholders only where the slide fills them.
  const layers: [Part, boolean][] = [[master, attr(layout.root, 'showMasterSp') !== '0'], [layout, true], [slide, true]];
  for (const [part, shown] of layers) {
    if (!shown || !part.root) continue;
    const own = elements(spTree(part)).filter((s) => s.name !== 'nvGrpSpPr' && s.name !== 'grpSpPr' && (part === slide || !placeholderOf(s)));
    const members = own.map((s) => (part === slide && placeholderOf(s) ? resolvedPlaceholder(s, from) : withListDefaults(s, defaults)));
    // Slide-number fields show this slide's number wherever they are (the master's own text boxes too), not the text they saved.
    const ctxFor = (from: string) => ({ theme, textSize: TEXT_SIZE, picture: (id: string | undefined) => partPicture(pkg, from, id), most: SHAPES_MAX - shapes.length, text, fields: { slidenum: String(number) }, link: (id: string) => webLink(pkg, from, id) });
    const framed = members.length ? framedShapes(slideGroup(members, size), ctxFor(part.path)) : undefined;
    if (framed) shapes.push(...framed.shapes);
    // Tables and charts (p:graphicFrame with an a:tbl or a c:chart) over the part's other shapes.
    for (const frame of members) {
      if (frame.name !== 'graphicFrame') continue;
      // SmartArt as its saved drawing, an embedded object as its preview picture.
      const drawing = frameDrawing(pkg, part.path, frame);
      const drawn = drawing && framedShapes(slideGroup([drawing.member], size), ctxFor(drawing.part));
      if (drawn) shapes.push(...drawn.shapes);
      for (const cell of tableShapes(frame, theme, TEXT_SIZE, SHAPES_MAX - shapes.length, deckTableStyles(pkg))) shapes.push(cell);
      const chart = chartOf(pkg, part.path, frame, palette);
      if (chart && charts.length < CHARTS_MAX) charts.push(chart);
    }
  }
  return { ...background(pkg, [slide, layout, master], theme), shapes, ...(charts.length ? { charts } : {}) };
}

/** Reads a PPTX (or PPSX, POTX) deck. */
export function readPptx(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): Deck {
  checkContainer(bytes, 'PPTX');
  const pkg = new Package(bytes, problems, 'PPTX');
  const main = pkg.relTarget('', 'officeDocument') ?? 'ppt/presentation.xml';
  const presentation = pkg.xml(main);
  if (presentation?.name !== 'presentation') throw new ConversionError('not_word', 'The file is not a PowerPoint presentation (its main part is not a presentation).');
  const sz = child(presentation, 'sldSz');
  const dim = (name: 'cx' | 'cy') => {
    const v = Number(attr(sz, name));
    return v >= 914_400 / 4 && v <= 51_206_400 ? v : DEFAULT_SIZE[name];
  };
  const size = { cx: dim('cx'), cy: dim('cy') };
  const rels = pkg.rels(main);
  const slides: Slide[] = [];
  // Slides are numbered from p:presentation firstSlideNum, hidden ones counted.
  const firstSlideNum = Number(attr(presentation, 'firstSlideNum') ?? 1);
  const first = Number.isInteger(firstSlideNum) ? Math.max(0, Math.min(firstSlideNum, 9_999)) : 1;
  children(child(presentation, 'sldIdLst'), 'sldId').slice(0, SLIDES_MAX).forEach((id, i) => {
    const rel = rels.get(attr(id, 'r:id') ?? '');
    if (!rel || rel.external) return;
    const root = partXml(pkg, rel.target);
    if (!root || attr(root, 'show') === '0') return;
    slides.push(readSlide(pkg, { path: rel.target, root }, size, first + i, child(presentation, 'defaultTextStyle')));
  });
  const embeddedFonts = pptxFontRefs(pkg, main, presentation);
  return { width: size.cx / EMU_PER_POINT, height: size.cy / EMU_PER_POINT, slides, fontIndependentLines: true, ...(embeddedFonts.length ? { embeddedFonts } : {}) };
}
