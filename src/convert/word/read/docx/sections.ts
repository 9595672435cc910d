/**
 * Section properties (w:sectPr): page geometry, columns, numbering restart, and the header/footer
 * parts. A section without its own header or footer of some type inherits the previous section's, as
 * in Word; the first section falls back to nothing.
 */
import { borderShows, type Block, type HeaderFooterSet, type PageGeometry, type Section } from '../../model/index';
import { attr, child, children, type XmlElement } from '../../../../codecs/xml';
import { onOff, parseBorders, twips } from './props';
import type { Theme } from '../../../office/theme';

/** Read a header or footer part (by its path) into blocks; callers cache by path. */
export type PartReader = (relId: string, kind: 'header' | 'footer') => Block[] | undefined;

const LETTER: PageGeometry = {
  width: 612,
  height: 792,
  marginTop: 72,
  marginRight: 72,
  marginBottom: 72,
  marginLeft: 72,
  header: 36,
  footer: 36,
};

/** The border values that are lines (ST_Border); the other values name art borders. */
const LINE_BORDER = /^(single|thick|double|dotted|dashed|dotDash|dotDotDash|triple|thin.*|thick.*|wave|doubleWave|dashSmallGap|dashDotStroked|threeDEmboss|threeDEngrave|outset|inset|nil|none)$/;

export function readSection(sectPr: XmlElement | undefined, previous: Section | undefined, readPart: PartReader, evenAndOdd: boolean, theme: Theme): Section {
  const pgSz = child(sectPr, 'pgSz');
  const pgMar = child(sectPr, 'pgMar');
  const len = (el: XmlElement | undefined, name: string, fallback: number) => {
    const v = twips(attr(el, name));
    return v === undefined ? fallback : Math.abs(v);
  };
  // Without pgSz/pgMar Word uses the previous section's values, else US Letter with 1" margins.
  const base = previous?.page ?? LETTER;
  let width = len(pgSz, 'w', base.width);
  let height = len(pgSz, 'h', base.height);
  if (attr(pgSz, 'orient') === 'landscape' && width < height) [width, height] = [height, width];
  const page: PageGeometry = {
    width,
    height,
    marginTop: len(pgMar, 'top', base.marginTop),
    marginRight: len(pgMar, 'right', base.marginRight),
    marginBottom: len(pgMar, 'bottom', base.marginBottom),
    marginLeft: len(pgMar, 'left', base.marginLeft),
    header: len(pgMar, 'header', base.header),
    footer: len(pgMar, 'footer', base.footer),
  };
  const section: Section = { page, headers: {}, footers: {}, blocks: [] };

  const cols = child(sectPr, 'cols');
  const num = parseInt(attr(cols, 'num') ?? '', 10);
  if (num > 1) {
    section.columns = num;
    section.columnGap = twips(attr(cols, 'space')) ?? 36;
  }
  if (onOff(attr(child(sectPr, 'titlePg'), 'val') ?? (child(sectPr, 'titlePg') ? '1' : undefined))) section.titlePage = true;
  if (evenAndOdd) section.evenAndOdd = true;
  const start = parseInt(attr(child(sectPr, 'pgNumType'), 'start') ?? '', 10);
  if (Number.isFinite(start)) section.pageNumberStart = start;
  const type = attr(child(sectPr, 'type'), 'val');
  if (type === 'continuous' || type === 'oddPage' || type === 'evenPage' || type === 'nextColumn' || type === 'nextPage') section.start = type;

  const pgBorders = child(sectPr, 'pgBorders');
  const borders = parseBorders(pgBorders, theme, ['top', 'left', 'bottom', 'right'] as const);
  // Art borders (val="apples", "mapleMuffins"...) are rows of pictures: not drawn, as LibreOffice does not either.
  for (const side of ['top', 'left', 'bottom', 'right'] as const) if (!LINE_BORDER.test(attr(child(pgBorders, side), 'val') ?? 'single')) delete borders?.[side];
  if (borders && Object.values(borders).some(borderShows)) {
    const display = attr(pgBorders, 'display');
    section.pageBorders = {
      ...borders,
      offsetFrom: attr(pgBorders, 'offsetFrom') === 'page' ? 'page' : 'text',
      display: display === 'firstPage' || display === 'notFirstPage' ? display : 'allPages',
    };
  }

  section.headers = references(sectPr, 'headerReference', 'header', previous?.headers, readPart);
  section.footers = references(sectPr, 'footerReference', 'footer', previous?.footers, readPart);
  return section;
}

function references(
  sectPr: XmlElement | undefined,
  element: string,
  kind: 'header' | 'footer',
  inherited: HeaderFooterSet | undefined,
  readPart: PartReader,
): HeaderFooterSet {
  const set: HeaderFooterSet = { ...inherited };
  for (const ref of children(sectPr, element)) {
    const id = ref.attrs['r:id'];
    const t = ref.attrs['type'] ?? 'default';
    if (!id || (t !== 'default' && t !== 'first' && t !== 'even')) continue;
    const blocks = readPart(id, kind);
    if (blocks) set[t] = blocks;
  }
  return set;
}
