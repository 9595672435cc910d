/**
 * An OpenDocument presentation (.odp, .otp) as the slide model: the slide size from the first
 * master page's page layout, the visible slides in order (a drawing-page style with
 * presentation:visibility="hidden" skipped), and each slide's shapes read by the shared ODF shape
 * reader (office/odf/shapes.ts) over its master page's own shapes (logos, rules: its placeholders,
 * presentation:class, are not printed). The slide's drawing-page fill, else its master's, is the
 * background. Speaker notes (presentation:notes) and empty placeholders do not print; embedded
 * charts are read from their object's content.xml, tables cell by cell (odp-table.ts).
 */
import { attr, child, children, parseXml, XmlError, type XmlElement } from '../../../codecs/xml';
import { ZipError } from '../../../codecs/zip-directory';
import { LimitExceeded } from '../../../lib/limits';
import { readOdfChart } from '../../office/odf/chart';
import { damagedOdf, openOdfPackage, packagePath, parseOdfPart, type OdfKind, type PartReader } from '../../office/odf/package';
import { drawsElement, fillOf, readShapes, type ShapeContext } from '../../office/odf/shapes';
import { lengthPoints, paragraphText, StyleSources, type TextLook } from '../../office/odf/styles';
import { ConversionError } from '../../errors';
import { ignoreProblems, type ProblemSink } from '../../problems';
import type { Shape, TextParagraph } from '../../office/model';
import type { Deck, Slide } from '../model';
import { SLIDES_MAX } from './pptx';
import { odpTableShapes } from './odp-table';
import { odpFontRefs } from './embedded-fonts';

export const PRESENTATION_TYPES = ['application/vnd.oasis.opendocument.presentation', 'application/vnd.oasis.opendocument.presentation-template'];
const PRESENTATION: OdfKind = {
  types: PRESENTATION_TYPES,
  noun: 'presentation',
  passwordHelp: 'open it in LibreOffice Impress, remove the password (File → Save As without "Save with password"), save it and upload it again.',
};
/** Shapes a slide keeps, charts, and characters of its shapes' text all together. */
const SHAPES_MAX = 2_000;
const CHARTS_MAX = 50;
const SLIDE_TEXT_MAX = 262_144;
/** Impress's default slide (28 × 15.75 cm) where no page layout says. */
const DEFAULT_SIZE = { width: 793.701, height: 446.457 };
/** What text is where no style says (Impress's default graphic style's face, PowerPoint's text box size). */
const BASE_TEXT: TextLook = { name: 'Liberation Sans', size: 18 };

/** A slide's or master's drawing-page properties (draw:style-name, family drawing-page). */
const pageProps = (sources: StyleSources, page: XmlElement | undefined) => sources.props('drawing-page', attr(page, 'style-name'), 'drawing-page-properties');

/** The page size of a master page's layout, in points; undefined when it gives none that is sane. */
function pageSize(sources: StyleSources, master: XmlElement | undefined): { width: number; height: number } | undefined {
  const props = child(sources.pageLayouts.get(attr(master, 'page-layout-name') ?? ''), 'page-layout-properties');
  const [width, height] = [lengthPoints(attr(props, 'page-width')), lengthPoints(attr(props, 'page-height'))];
  const sane = (v: number | undefined) => v !== undefined && v >= 18 && v <= 4032;
  return sane(width) && sane(height) ? { width: width!, height: height! } : undefined;
}

/** A page's background from its drawing-page fill (solid, gradient, bitmap); undefined when it has none of its own. */
function ownBackground(props: Record<string, string>, sources: StyleSources, read: PartReader): Pick<Slide, 'background' | 'backgroundPicture' | 'backgroundGradient'> | undefined {
  if (!props['fill'] || props['fill'] === 'none') return undefined;
  const { fill, picture, gradient } = fillOf(props, sources, read);
  return picture ? { backgroundPicture: picture } : fill ? { background: fill, ...(gradient ? { backgroundGradient: gradient } : {}) } : undefined;
}

/** A frame's embedded chart (draw:object naming an object whose content.xml is an office:chart), in its box. */
function chartOf(frame: XmlElement, read: PartReader): NonNullable<Slide['charts']>[number] | undefined {
  const path = packagePath(attr(child(frame, 'object'), 'href'));
  const xml = path ? read(`${path}/content.xml`) : undefined;
  if (!xml) return undefined;
  let chart;
  try {
    chart = readOdfChart(parseXml(xml));
  } catch (e) {
    if (e instanceof LimitExceeded) throw e;
    return undefined; // an unreadable object prints its replacement image, if any
  }
  const n = (name: string) => Math.max(0, Math.min(lengthPoints(attr(frame, name)) ?? 0, 1e5));
  const box = { x: n('x'), y: n('y'), width: n('width'), height: n('height') };
  return chart && box.width >= 1 && box.height >= 1 ? { box, chart } : undefined;
}

/** The drawing-page property that shows a master's field placeholder on a slide. */
const FIELD_SHOWN: Record<string, string> = { 'page-number': 'display-page-number', footer: 'display-footer', 'date-time': 'display-date-time', header: 'display-header' };

/** Whether an element on a master page prints: its own shapes do; its placeholders (title, outline...) do not, its fields' (page number, footer...) where the slide shows them. */
const masterPrints = (el: XmlElement, props: Record<string, string>) => {
  const shown = FIELD_SHOWN[attr(el, 'class') ?? ''];
  return attr(el, 'class') === undefined || (shown !== undefined && props[shown] === 'true');
};
/** Whether an element on a slide prints: not its notes, nor a placeholder left empty. */
const slidePrints = (el: XmlElement) => el.name !== 'notes' && attr(el, 'class') !== 'notes' && attr(el, 'placeholder') !== 'true';

/** The shapes, tables and charts of a page's (or master's) elements onto the slide. */
function addElements(slide: Slide, elements: XmlElement[], ctx: ShapeContext, read: PartReader): void {
  for (const el of elements) {
    if (slide.shapes.length >= SHAPES_MAX) break;
    const table = el.name === 'frame' ? child(el, 'table') : undefined;
    if (table) {
      slide.shapes.push(...odpTableShapes(el, table, ctx, SHAPES_MAX - slide.shapes.length));
      continue;
    }
    const chart = el.name === 'frame' && child(el, 'object') ? chartOf(el, read) : undefined;
    if (chart) {
      if ((slide.charts ??= []).length < CHARTS_MAX) slide.charts.push(chart);
      continue;
    }
    if (!drawsElement(el, ctx)) continue;
    for (const s of readShapes(el, ctx, SHAPES_MAX - slide.shapes.length)) slide.shapes.push({ box: { x: s.x, y: s.y, width: s.width, height: s.height }, shape: s.shape });
  }
}

const elementsOf = (page: XmlElement | undefined) => (page?.children ?? []).filter((c): c is XmlElement => typeof c !== 'string');

/** Nesting a page-number field is looked for within (a shape's text is a few levels deep). */
const FIELD_DEPTH_MAX = 64;

/** What a slide's fields show: its number, and its footer's, header's and (fixed) date's text (presentation:footer-decl...). */
type Fields = Record<string, string>;

/** The element with its fields (text:page-number, presentation:footer, -header, -date-time) showing the slide's values, not the "<number>" written in them. */
function withFields(el: XmlElement, fields: Fields, depth = 0): XmlElement {
  if (el.name === 'page-number' || el.prefix === 'presentation') return Object.hasOwn(fields, el.name) ? { ...el, children: [fields[el.name]!] } : el;
  if (depth >= FIELD_DEPTH_MAX || !el.children.some((c) => typeof c !== 'string')) return el;
  return { ...el, children: el.children.map((c) => (typeof c === 'string' ? c : withFields(c, fields, depth + 1))) };
}

/** The slide's fields from its number and the declarations (office:presentation's presentation:*-decl) it uses. */
function fieldsOf(page: XmlElement, n: number, decls: Map<string, XmlElement>): Fields {
  const fields: Fields = { 'page-number': String(n) };
  for (const name of ['footer', 'header', 'date-time']) {
    const decl = decls.get(`${name}-decl:${attr(page, `use-${name}-name`) ?? ''}`);
    if (decl && attr(decl, 'source') !== 'current-date') fields[name] = paragraphText(decl, 1024);
  }
  return fields;
}

/** Impress prints text that runs past its box (it does not clip it): the shared reader's clipping is undone, groups' members too. */
function unclipped(shape: Shape<TextParagraph>, depth = 0): void {
  delete shape.clipsText;
  if (depth < FIELD_DEPTH_MAX) for (const m of shape.members ?? []) unclipped(m, depth + 1);
}

function readPage(page: XmlElement, fields: Fields, masters: Map<string, XmlElement>, sources: StyleSources, read: PartReader): Slide {
  const master = masters.get(attr(page, 'master-page-name') ?? '') ?? masters.values().next().value;
  const props = pageProps(sources, page);
  const background = ownBackground(props, sources, read) ?? (props['background-visible'] !== 'false' ? ownBackground(pageProps(sources, master), sources, read) : undefined);
  const slide: Slide = { ...(background ?? {}), shapes: [] };
  const ctx: ShapeContext = { sources, base: BASE_TEXT, read, text: { left: SLIDE_TEXT_MAX } };
  if (props['background-objects-visible'] !== 'false') addElements(slide, elementsOf(master).filter((el) => masterPrints(el, props)).map((el) => withFields(el, fields)), ctx, read);
  addElements(slide, elementsOf(page).filter(slidePrints).map((el) => withFields(el, fields)), ctx, read);
  for (const { shape } of slide.shapes) unclipped(shape);
  if (slide.charts && !slide.charts.length) delete slide.charts;
  return slide;
}

/** Reads an ODP (or OTP) presentation. */
export function readOdp(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): Deck {
  const pkg = openOdfPackage(bytes, problems, PRESENTATION);
  const sources = new StyleSources();
  const styles = pkg.styles ? parseOdfPart(pkg.styles, 'styles.xml', problems) : undefined;
  sources.add(styles);
  let content: XmlElement;
  try {
    // All the slides are in this one part: refused past 400,000 elements (about 100 MB of tree), as a PPTX slide is past its budget.
    content = parseXml(pkg.content, undefined, 400_000);
  } catch (e) {
    if (e instanceof XmlError || e instanceof ZipError) throw damagedOdf('presentation', 'content.xml is not readable XML', e);
    if (e instanceof LimitExceeded && e.limit === 'xml_elements') throw new LimitExceeded(e.limit, `The presentation's content.xml ${e.message}`);
    throw e;
  }
  sources.add(content);
  const presentation = child(child(content, 'body'), 'presentation');
  if (!presentation) throw new ConversionError('not_word', 'The file is an OpenDocument file but not a presentation (its body holds no office:presentation).');
  const masters = new Map(sources.masterPages.map((m) => [attr(m, 'name') ?? '', m]));
  const pages = children(presentation, 'page').slice(0, SLIDES_MAX);
  const decls = new Map(elementsOf(presentation).filter((d) => d.name.endsWith('-decl')).slice(0, 1000).map((d) => [`${d.name}:${attr(d, 'name') ?? ''}`, d]));
  const first = masters.get(attr(pages[0], 'master-page-name') ?? '') ?? sources.masterPages[0];
  const size = pageSize(sources, first) ?? DEFAULT_SIZE;
  // Slides are numbered by their place among all, hidden ones too.
  const slides = pages.flatMap((p, i) => (pageProps(sources, p)['visibility'] === 'hidden' ? [] : [readPage(p, fieldsOf(p, i + 1, decls), masters, sources, pkg.read)]));
  // A deck LibreOffice imported from PowerPoint keeps PowerPoint's line spacing (style:font-independent-line-spacing on its paragraph styles); one made in Impress spaces lines by their faces.
  const fontIndependentLines = new TextDecoder().decode(pkg.content).includes('font-independent-line-spacing="true"');
  const embeddedFonts = odpFontRefs([content, styles], pkg.read, pkg.sizeOf, problems);
  return { width: size.width, height: size.height, slides, ...(fontIndependentLines ? { fontIndependentLines } : {}), ...(embeddedFonts.length ? { embeddedFonts } : {}) };
}
