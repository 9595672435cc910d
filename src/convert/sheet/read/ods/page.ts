/**
 * A table's print settings from its master page (styles.xml): the page layout's paper, margins,
 * scale or fit, page order, centring and printed grid and headings; the header and footer regions
 * written as Excel's header codes (&L &C &R, &P &N &A &D &T &F, fonts as &"Family,Style" and &size),
 * which the sheet's header printer reads for every format alike.
 */
import { attr, child, children, type XmlElement } from '../../../../codecs/xml';
import type { Font, HeaderFooter, PrintSettings } from '../../model';
import { fontOf, lengthPoints, paragraphText, type StyleSources } from './styles';

/** Paper sizes the XLSX and XLS readers know (points, portrait): LibreOffice's lengths of them come back as the same paper. */
const PAPERS = [
  { width: 612, height: 792 }, { width: 612, height: 1008 }, { width: 792, height: 1224 }, { width: 595.28, height: 841.89 }, { width: 841.89, height: 1190.55 },
  { width: 419.53, height: 595.28 }, { width: 728.5, height: 1031.81 }, { width: 515.91, height: 728.5 },
];
/** A page layout without a size prints on LibreOffice's default paper, A4. */
const A4 = PAPERS[3]!;
/** LibreOffice's default page margins: 2 cm. */
const DEFAULT_MARGIN = 56.693;
/** Codes one header or footer region may grow to (Excel's own limit is 255 characters in all). */
const HEADER_CODES_MAX = 4096;
/** Excel's default header and footer distance, for pages that print none (it then means nothing). */
const UNUSED_HEADER_DISTANCE = 21.6;

/** Print settings without what the table itself gives (print ranges, header rows and columns, breaks). */
export type PagePrint = Omit<PrintSettings, 'printArea' | 'titleRows' | 'titleCols' | 'rowBreaks' | 'colBreaks'>;

function paperOf(props: Record<string, string>): { paper: { width: number; height: number }; landscape: boolean } {
  const w = lengthPoints(props['page-width']);
  const h = lengthPoints(props['page-height']);
  const orientation = props['print-orientation'];
  // No size: LibreOffice prints its default paper upright, whatever print-orientation says (it turns a page by its size).
  if (!(w && h && w > 0 && h > 0 && w < 10_000 && h < 10_000)) return { paper: A4, landscape: false };
  const [short, long] = [Math.min(w, h), Math.max(w, h)];
  const known = PAPERS.find((p) => Math.abs(p.width - short) < 1.5 && Math.abs(p.height - long) < 1.5);
  return { paper: known ?? { width: Math.round(short * 100) / 100, height: Math.round(long * 100) / 100 }, landscape: orientation ? orientation === 'landscape' : w > h };
}

const shown = (el: XmlElement | undefined): el is XmlElement => !!el && attr(el, 'display') !== 'false';

/** A header's or footer's height as LibreOffice stores it (svg:height, or fo:min-height), which holds the spacing below a header. */
function bandHeight(layout: XmlElement | undefined, band: 'header-style' | 'footer-style'): number {
  const props = child(child(layout, band), 'header-footer-properties')?.attrs ?? {};
  const h = lengthPoints(props['height'] ?? props['min-height']) ?? 0;
  return h > 0 && h < 720 ? h : 0;
}

/** Excel's header codes for one font change at a time: the state a section's text has reached. */
class HeaderCodes {
  out = '';
  private state: Required<Omit<Font, 'color'>> & { color?: string };

  constructor(base: Font) {
    this.state = this.full(base);
  }

  private full(f: Font) {
    return { name: f.name, size: Math.round(f.size), bold: !!f.bold, italic: !!f.italic, underline: !!f.underline, strike: !!f.strike, ...(f.color ? { color: f.color } : {}) };
  }

  /** Text as it prints (an ampersand doubled), or a field's code, in `font`. */
  write(font: Font, text: string, field = false): void {
    if (!text || this.out.length >= HEADER_CODES_MAX) return;
    const f = this.full(font);
    const s = this.state;
    const face = f.bold && f.italic ? 'Bold Italic' : f.bold ? 'Bold' : f.italic ? 'Italic' : 'Regular';
    const sized = f.size !== s.size;
    // The size first: a family's closing quote keeps the text's own digits from running into it.
    if (sized) this.out += `&${f.size}`;
    if (f.name !== s.name || f.bold !== s.bold || f.italic !== s.italic || (sized && /^\d/.test(text))) this.out += `&"${f.name === s.name ? '-' : f.name},${face}"`;
    if (f.underline !== s.underline) this.out += '&U';
    if (f.strike !== s.strike) this.out += '&S';
    if (f.color !== s.color) this.out += `&K${f.color ?? '000000'}`;
    this.state = f;
    this.out += field ? text : text.replace(/&/g, '&&');
  }
}

const FIELDS: Record<string, string> = { 'page-number': '&P', 'page-count': '&N', 'sheet-name': '&A', date: '&D', time: '&T', title: '&F' };

function textProps(sources: StyleSources, family: string, name: string | undefined): Record<string, string> {
  return sources.props(family, name, 'text-properties');
}

/** A paragraph's runs and fields into the codes, each span in its text style's font. */
function writeRuns(el: XmlElement, props: Record<string, string>, ctx: { sources: StyleSources; base: Font; codes: HeaderCodes }): void {
  const font = fontOf(ctx.sources, props, ctx.base);
  for (const node of el.children) {
    if (typeof node === 'string') ctx.codes.write(font, node);
    else if (FIELDS[node.name]) ctx.codes.write(font, FIELDS[node.name]!, true);
    else if (node.name === 'file-name') ctx.codes.write(font, attr(node, 'display') === 'full' ? '&Z&F' : attr(node, 'display') === 'path' ? '&Z' : '&F', true);
    else if (node.name === 'span' || node.name === 'a') writeRuns(node, { ...props, ...textProps(ctx.sources, 'text', attr(node, 'style-name')) }, ctx);
    else if (node.name === 's' || node.name === 'tab' || node.name === 'line-break') ctx.codes.write(font, paragraphText({ ...el, children: [node] }, HEADER_CODES_MAX));
  }
}

/** A region's (or a header's own) paragraphs, lines joined by a newline. */
function regionCodes(region: XmlElement, sources: StyleSources, base: Font): string {
  const codes = new HeaderCodes(base);
  children(region, 'p').slice(0, 100).forEach((p, i) => {
    if (i) codes.out += '\n';
    writeRuns(p, textProps(sources, 'paragraph', attr(p, 'style-name')), { sources, base, codes });
  });
  return codes.out.replace(/\n+$/, '');
}

/** A style:header (or footer) as Excel's codes; undefined when it is hidden or prints nothing. */
function bandCodes(el: XmlElement | undefined, sources: StyleSources, base: Font): string | undefined {
  if (!shown(el)) return undefined;
  const regions = (['left', 'center', 'right'] as const).flatMap((side) => {
    const region = child(el, `region-${side}`);
    const codes = region ? regionCodes(region, sources, base) : '';
    return codes ? [`&${side[0]!.toUpperCase()}${codes}`] : [];
  });
  const own = regions.length ? '' : regionCodes(el, sources, base);
  const codes = regions.join('') || (own ? `&C${own}` : '');
  return codes || undefined;
}

function headerFooter(master: XmlElement | undefined, band: 'header' | 'footer', sources: StyleSources, base: Font): HeaderFooter | undefined {
  const odd = bandCodes(child(master, band), sources, base);
  if (!odd) return undefined;
  // A -left or -first band with display="false" shares the odd pages' content.
  const even = bandCodes(child(master, `${band}-left`), sources, base);
  const first = bandCodes(child(master, `${band}-first`), sources, base);
  return { odd, ...(even ? { even } : {}), ...(first ? { first } : {}) };
}

/** Scale and fit: style:scale-to (a percentage), scale-to-X/-Y (pages wide and tall), or scale-to-pages (pages in all). */
function scaleOf(props: Record<string, string>): Pick<PrintSettings, 'scale' | 'fitTo'> {
  const count = (v: string | undefined) => (Number.isInteger(Number(v)) && Number(v) > 0 && Number(v) < 10_000 ? Number(v) : 0);
  const x = count(props['scale-to-X']);
  const y = count(props['scale-to-Y']);
  if (x || y) return { scale: 100, fitTo: { width: x, height: y } };
  // Excel has no count of pages in all: N pages each way never shrinks more than LibreOffice does.
  const pages = count(props['scale-to-pages']);
  if (pages) return { scale: 100, fitTo: { width: pages, height: pages } };
  const percent = Number(props['scale-to']?.replace(/%$/, ''));
  return { scale: percent >= 10 && percent <= 400 ? Math.round(percent) : 100 };
}

/**
 * The print settings of a master page. Margins as Excel means them: LibreOffice's page margin runs
 * to the header, whose height holds the gap below it, so Excel's top margin (to the cells) is the
 * page margin plus the header's height and Excel's header margin is the page margin; the same
 * below with the footer. A page without a header keeps its margin as the top one.
 */
export function pagePrint(sources: StyleSources, masterName: string | undefined, base: Font): PagePrint {
  const master = sources.masterPages.find((m) => attr(m, 'name') === masterName) ?? sources.masterPages.find((m) => attr(m, 'name') === 'Default') ?? sources.masterPages[0];
  const layout = sources.pageLayouts.get(attr(master, 'page-layout-name') ?? '');
  const props = child(layout, 'page-layout-properties')?.attrs ?? {};
  const margin = (side: string) => {
    const m = lengthPoints(props[`margin-${side}`] ?? props['margin']);
    return m !== undefined && m >= 0 && m < 3600 ? m : DEFAULT_MARGIN;
  };
  const header = headerFooter(master, 'header', sources, base);
  const footer = headerFooter(master, 'footer', sources, base);
  const headerShown = shown(child(master, 'header'));
  const footerShown = shown(child(master, 'footer'));
  const { paper, landscape } = paperOf(props);
  const [top, bottom] = [margin('top'), margin('bottom')];
  const printed = new Set((props['print'] ?? '').split(/\s+/));
  const centering = props['table-centering'];
  return {
    orientation: landscape ? 'landscape' : 'portrait',
    paper,
    margins: {
      left: margin('left'),
      right: margin('right'),
      top: headerShown ? top + bandHeight(layout, 'header-style') : top,
      bottom: footerShown ? bottom + bandHeight(layout, 'footer-style') : bottom,
      header: headerShown ? top : Math.min(UNUSED_HEADER_DISTANCE, top),
      footer: footerShown ? bottom : Math.min(UNUSED_HEADER_DISTANCE, bottom),
    },
    ...scaleOf(props),
    pageOrder: props['print-page-order'] === 'ltr' ? 'overThenDown' : 'downThenOver',
    ...(centering === 'horizontal' || centering === 'both' ? { centerHorizontally: true } : {}),
    ...(centering === 'vertical' || centering === 'both' ? { centerVertically: true } : {}),
    ...(printed.has('grid') ? { gridLines: true } : {}),
    ...(printed.has('headers') ? { headings: true } : {}),
    ...(printed.has('annotations') ? { comments: 'atEnd' as const } : {}),
    ...(header ? { header } : {}),
    ...(footer ? { footer } : {}),
  };
}
