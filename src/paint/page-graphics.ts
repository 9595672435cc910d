/**
 * The filled boxes and plain shapes of our own engine's pages written as content-stream operators
 * directly (`re f`, `m l S`), in a stream put before what the page device drew: a spreadsheet's
 * page is thousands of border and fill boxes, and MuPDF's PDF device formats each coordinate with
 * printf and writes a stream the finisher then scans for glyphs and deflates again (florida's 261
 * pages: a quarter of the conversion). The painter hands boxes here only until the device has
 * drawn something on the page, so the order things cover each other in is kept.
 */
import type * as Mupdf from 'mupdf';
import { deflateSync } from 'node:zlib';
import type { FilledBox, PictureItem, ShapeItem } from '../contracts/display';
import { latin1Bytes } from '../lib/latin1';
import { putPngImageEntries, readPng, type PassThrough } from '../codecs/png-parts';
import { pngProblem } from '../codecs/image-header';

/** zlib level of the streams: as page-text.ts's, rules and boxes repeat as text does. */
const DEFLATE_LEVEL = 2;

/**
 * A coordinate in hundredths of a point: the stream starts with `0.01 0 0 0.01 0 0 cm`, so every
 * number it writes is an integer (a double's shortest form cost a fifth of writing the boxes).
 */
const num = (n: number): string => String(Math.round(n * 100));
/** A colour component: three decimals, which give its 8-bit value back exactly (two moved 0x44 to 0x45). */
const part = (n: number): string => String(Math.round(n * 1000) / 1000);

const COMPONENTS = new Map<string, string>();
/** rrggbb as the three components of `rg`/`RG` (each colour worked out once); black when not a colour. */
function components(hex: string | undefined): string {
  let out = COMPONENTS.get(hex ?? '');
  if (out === undefined) {
    const n = hex && /^[0-9a-fA-F]{6}$/.test(hex) ? parseInt(hex, 16) : 0;
    out = `${part((n >> 16) / 255)} ${part(((n >> 8) & 255) / 255)} ${part((n & 255) / 255)}`;
    if (COMPONENTS.size < 4096) COMPONENTS.set(hex ?? '', out);
  }
  return out;
}

/**
 * A PNG whose own data PDF reads as it is (8-bit, opaque, not interlaced, its data able to hold
 * the pixels it declares: a lying header is not passed on into the PDF): the rest go through
 * MuPDF's device, which decodes them within its limits.
 */
const PASSING = new WeakMap<Uint8Array, PassThrough | null>();
function passingPng(data: Uint8Array): PassThrough | undefined {
  let png = PASSING.get(data);
  if (png === undefined) {
    const read = readPng(data);
    PASSING.set(data, (png = read && !read.alpha && !read.interlaced && !pngProblem(data) ? read : null));
  }
  return png ?? undefined;
}

interface PageContent {
  parts: string[];
  fill?: string;
  stroke?: string;
  width?: number;
  /** The dash pattern set (`[] 0 d` solid). */
  dash?: string;
  /** Boxes of the current colour written since the last `f`: a run is one path, filled once. */
  openBoxes?: boolean;
  /** Pictures the page shows, by resource name. */
  pictures: Map<string, Uint8Array>;
  /** Fill opacities the page uses (graphics states), by resource name. */
  states: Map<string, number>;
  /** Axial shadings the page paints (gradients), by resource name: their end points (written units) and stops. */
  shadings: Map<string, Shading>;
}

interface Shading {
  /** Axial: the axis's ends; radial: the centre and the radius. */
  coords: [number, number, number, number] | [number, number, number];
  stops: { at: number; color: string }[];
}

export class PageGraphics {
  private readonly pages = new Map<number, PageContent>();
  /** Shadings named so far: names are the document's, so a page's parts sealed apart never share one. */
  private shadingCount = 0;
  /** Deflated streams per page, in order. */
  private readonly sealed = new Map<number, { streams: Uint8Array[]; pictures: Map<string, Uint8Array>; states: Map<string, number>; shadings: Map<string, Shading>; overFrom?: number }>();
  /** Resource names of the pictures, one per picture's bytes. */
  private readonly pictureNames = new Map<Uint8Array, string>();

  /** Fills the box on page `pageIndex`, `pageHeight` tall (coordinates top-down, as the display list's). */
  fill(pageIndex: number, pageHeight: number, box: FilledBox): void {
    const page = this.pageOf(pageIndex);
    // A run of boxes of one colour is one path filled once (one winding): overlapping rules (a
    // cell's right border over the next one's left) then cover their pixels once, as the device's
    // one path did, not twice over at the edges where a rasteriser shades them.
    this.fillColor(page, box.color);
    page.openBoxes = true;
    const [x0, x1] = box.x0 <= box.x1 ? [box.x0, box.x1] : [box.x1, box.x0];
    const [y0, y1] = box.y0 <= box.y1 ? [box.y0, box.y1] : [box.y1, box.y0];
    const [left, bottom] = [Math.round(x0 * 100), Math.round((pageHeight - y1) * 100)];
    page.parts.push(`${left} ${bottom} ${Math.round(x1 * 100) - left} ${Math.round((pageHeight - y0) * 100) - bottom} re`);
  }

  /** A closed polygon filled, and/or an open polyline stroked with butt ends and round joins (as display-painter.ts strokes them). */
  shape(pageIndex: number, pageHeight: number, shape: ShapeItem): void {
    if (shape.points.length < 2) return;
    const page = this.pageOf(pageIndex);
    this.closeBoxes(page);
    const path = shape.points.map(([x, y], i) => `${num(x)} ${num(pageHeight - y)} ${i ? 'l' : 'm'}`).join(' ');
    const opacity = shape.opacity ?? 1;
    if (shape.fill && shape.gradient && opacity >= 1) {
      // The gradient painted within the polygon: an axial shading along its angle, from the polygon's first extent to its last.
      const name = `SH${this.shadingCount++}`;
      page.shadings.set(name, { coords: shape.gradient.radial ? disc(shape.points, pageHeight) : axis(shape.points, shape.gradient.angle, pageHeight), stops: shape.gradient.stops });
      page.parts.push(`q ${path} h W n /${name} sh Q`);
    } else if (shape.fill && opacity < 1) {
      // A see-through fill in a graphics state of its own (/ca), the colour restored away with it.
      const name = `GA${Math.round(Math.max(0, opacity) * 100)}`;
      page.states.set(name, Math.round(Math.max(0, opacity) * 100) / 100);
      page.parts.push(`q /${name} gs ${components(shape.fill)} rg ${path} h f Q`);
    } else if (shape.fill) {
      this.fillColor(page, shape.fill);
      page.parts.push(`${path} h f`);
    }
    if (shape.stroke) {
      const color = components(shape.stroke.color);
      if (page.stroke !== color) page.parts.push(`${(page.stroke = color)} RG`);
      if (page.width !== shape.stroke.width) page.parts.push(`${num((page.width = shape.stroke.width))} w`);
      const dash = shape.stroke.dash?.length ? `[${shape.stroke.dash.map((d) => num(Math.max(d, 0.01))).join(' ')}] 0 d` : '[] 0 d';
      if ((page.dash ?? '[] 0 d') !== dash) page.parts.push((page.dash = dash));
      page.parts.push(`${path} S`);
    }
  }

  /** Whether `picture` can be written here (a PNG that passes through, shown whole); the painter hands the rest to the device. */
  takes(picture: PictureItem): boolean {
    return !picture.crop && !picture.grayscale && (picture.opacity ?? 1) >= 1 && picture.contentType === 'image/png' && passingPng(picture.data) !== undefined;
  }

  /**
   * Shows a picture `takes` accepted: its PNG data as an image object of its own, drawn over the
   * unit square `at` maps (top-down page space, as a device's fillImage takes it; PDF's image space
   * runs up, hence the flip).
   */
  picture(pageIndex: number, pageHeight: number, picture: PictureItem): void {
    const page = this.pageOf(pageIndex);
    this.closeBoxes(page);
    let name = this.pictureNames.get(picture.data);
    if (!name) this.pictureNames.set(picture.data, (name = `PG${this.pictureNames.size}`));
    page.pictures.set(name, picture.data);
    const [a, b, c, d, e, f] = picture.at;
    const m = [a, -b, -c, d, c + e, pageHeight - d - f].map((n) => String(Math.round(n * 10000) / 10000)).join(' ');
    page.parts.push(`q 100 0 0 100 0 0 cm ${m} cm /${name} Do Q`);
  }

  /** What is written next, until unclip, shows only within `rect` [x0, y0, x1, y1] (top-down). */
  clip(pageIndex: number, pageHeight: number, [x0, y0, x1, y1]: [number, number, number, number]): void {
    const page = this.pageOf(pageIndex);
    this.closeBoxes(page);
    page.parts.push(`q ${num(x0)} ${num(pageHeight - y1)} ${num(x1 - x0)} ${num(y1 - y0)} re W n`);
  }

  unclip(pageIndex: number): void {
    const page = this.pageOf(pageIndex);
    this.closeBoxes(page);
    page.parts.push('Q');
    // The colours and width set inside were restored away.
    page.fill = page.stroke = page.width = page.dash = undefined;
  }

  private fillColor(page: PageContent, hex: string | undefined): void {
    const color = components(hex);
    if (page.fill === color) return;
    this.closeBoxes(page);
    page.parts.push(`${(page.fill = color)} rg`);
  }

  private closeBoxes(page: PageContent): void {
    if (!page.openBoxes) return;
    page.parts.push('f');
    page.openBoxes = false;
  }

  private pageOf(pageIndex: number): PageContent {
    let page = this.pages.get(pageIndex);
    if (!page) this.pages.set(pageIndex, (page = { parts: ['q 0.01 0 0 0.01 0 0 cm 0 J 1 j 10 M'], pictures: new Map(), states: new Map(), shadings: new Map() }));
    return page;
  }

  /** Deflates a finished page's operators now, so a long workbook's are not all held as strings. */
  seal(pageIndex: number): void {
    const page = this.pages.get(pageIndex);
    if (!page) return;
    this.pages.delete(pageIndex);
    this.closeBoxes(page);
    const bytes = deflateSync(latin1Bytes(`${page.parts.join('\n')}\nQ\n`), { level: DEFLATE_LEVEL });
    const sealed = this.sealed.get(pageIndex);
    if (!sealed) this.sealed.set(pageIndex, { streams: [bytes], pictures: page.pictures, states: page.states, shadings: page.shadings });
    else {
      sealed.streams.push(bytes);
      for (const [name, data] of page.pictures) sealed.pictures.set(name, data);
      for (const [name, alpha] of page.states) sealed.states.set(name, alpha);
      for (const [name, shading] of page.shadings) sealed.shadings.set(name, shading);
    }
  }

  /**
   * What is drawn on the page from now on lies over its text so far (layer two: a sheet's drawings
   * over its cells' text): those streams are not put before the page's content but handed to the
   * text's writer to go after the first layer's text (PageText.writeInto's `over`).
   */
  over(pageIndex: number): void {
    this.seal(pageIndex);
    const sealed = this.sealed.get(pageIndex) ?? { streams: [], pictures: new Map(), states: new Map(), shadings: new Map() };
    this.sealed.set(pageIndex, { ...sealed, overFrom: sealed.streams.length });
  }

  /**
   * Puts each page's streams before its own content, those drawn after `over` apart (`over`: by page);
   * returns their object numbers (they show no text: the font subsetter skips them).
   */
  writeInto(pdf: Mupdf.PDFDocument, over?: Map<number, Mupdf.PDFObject[]>): Set<number> {
    const written = new Set<number>();
    for (const index of [...this.pages.keys()]) this.seal(index);
    const images = new Map<Uint8Array, Mupdf.PDFObject>();
    for (const [index, { streams, pictures, states, shadings, overFrom }] of this.sealed) {
      const pageObj = pdf.findPage(index);
      if (pictures.size) putPictures(pdf, pageObj, pictures, images);
      if (states.size) putStates(pdf, pageObj, states);
      if (shadings.size) putShadings(pdf, pageObj, shadings);
      const list = pdf.newArray();
      const upper: Mupdf.PDFObject[] = [];
      streams.forEach((bytes, k) => {
        const stream = pdf.addRawStream(bytes, { Filter: pdf.newName('FlateDecode') });
        written.add(stream.asIndirect());
        if (overFrom !== undefined && k >= overFrom) upper.push(stream);
        else list.push(stream);
      });
      if (upper.length) over?.set(index, upper);
      const contents = pageObj.get('Contents');
      if (contents.isArray()) contents.forEach((part) => list.push(part));
      else if (!contents.isNull()) list.push(contents);
      pageObj.put('Contents', list);
    }
    this.sealed.clear();
    return written;
  }
}

/** A gradient's axis over `points` (top-down page space) at `angle`: its ends where the polygon's extent along it starts and ends, in written units (PDF space). */
function axis(points: [number, number][], angle: number, pageHeight: number): [number, number, number, number] {
  const t = (angle * Math.PI) / 180, [dx, dy] = [Math.cos(t), Math.sin(t)];
  const along = points.map(([x, y]) => x * dx + y * dy);
  const [lo, hi] = [Math.min(...along), Math.max(...along)];
  const cx = points.reduce((s, p) => s + p[0], 0) / points.length, cy = points.reduce((s, p) => s + p[1], 0) / points.length;
  const mid = cx * dx + cy * dy;
  const at = (v: number): [number, number] => [cx + (v - mid) * dx, cy + (v - mid) * dy];
  const [[x0, y0], [x1, y1]] = [at(lo), at(hi)];
  return [x0 * 100, (pageHeight - y0) * 100, x1 * 100, (pageHeight - y1) * 100];
}

/** A radial gradient's circle over `points`: the middle of their bounds and the half diagonal, in written units (PDF space). */
function disc(points: [number, number][], pageHeight: number): [number, number, number] {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return [((x0 + x1) / 2) * 100, (pageHeight - (y0 + y1) / 2) * 100, (Math.hypot(x1 - x0, y1 - y0) / 2) * 100];
}

/** The page's gradients in its resources (/Shading): axial shadings whose colour runs through the stops (a stitching function of linear pieces). */
function putShadings(pdf: Mupdf.PDFDocument, pageObj: Mupdf.PDFObject, shadings: Map<string, Shading>): void {
  let resources = pageObj.get('Resources');
  if (!resources.isDictionary()) pageObj.put('Resources', (resources = pdf.newDictionary()));
  let dict = resources.get('Shading');
  if (!dict.isDictionary()) resources.put('Shading', (dict = pdf.newDictionary()));
  const rgbOf = (hex: string) => components(hex).split(' ').map(Number);
  const piece = (a: string, b: string) => pdf.addObject({ FunctionType: 2, Domain: [0, 1], C0: rgbOf(a), C1: rgbOf(b), N: 1 });
  for (const [name, { coords, stops }] of shadings) {
    const first = stops[0]!, last = stops.at(-1)!;
    // Before the first stop and after the last the colour holds (Extend); between them it runs piece by piece.
    const inner = stops.slice(1).map((s, i) => piece(stops[i]!.color, s.color));
    const span = Math.max(1e-6, last.at - first.at);
    const bounds = stops.slice(1, -1).map((s) => Math.min(1, Math.max(0, (s.at - first.at) / span)));
    const fn = inner.length === 1 ? inner[0]! : pdf.addObject({ FunctionType: 3, Domain: [0, 1], Functions: inner, Bounds: bounds, Encode: inner.flatMap(() => [0, 1]) });
    if (coords.length === 3) {
      const [cx, cy, r] = coords;
      dict.put(name, pdf.addObject({ ShadingType: 3, ColorSpace: pdf.newName('DeviceRGB'), Coords: [cx, cy, r * first.at, cx, cy, r * last.at], Function: fn, Extend: [true, true] }));
      continue;
    }
    const [x0, y0, x1, y1] = coords;
    const start = (v: number, w: number) => v + (w - v) * first.at, end = (v: number, w: number) => v + (w - v) * last.at;
    dict.put(name, pdf.addObject({ ShadingType: 2, ColorSpace: pdf.newName('DeviceRGB'), Coords: [start(x0, x1), start(y0, y1), end(x0, x1), end(y0, y1)], Function: fn, Extend: [true, true] }));
  }
}

/** The page's fill opacities in its resources (/ExtGState), each a graphics state setting /ca. */
function putStates(pdf: Mupdf.PDFDocument, pageObj: Mupdf.PDFObject, states: Map<string, number>): void {
  let resources = pageObj.get('Resources');
  if (!resources.isDictionary()) pageObj.put('Resources', (resources = pdf.newDictionary()));
  let dict = resources.get('ExtGState');
  if (!dict.isDictionary()) resources.put('ExtGState', (dict = pdf.newDictionary()));
  for (const [name, alpha] of states) {
    const state = pdf.newDictionary();
    state.put('Type', pdf.newName('ExtGState'));
    state.put('ca', alpha);
    dict.put(name, pdf.addObject(state));
  }
}

/** The page's pictures in its resources (/XObject), each image object made once for the document from its PNG's own data. */
function putPictures(pdf: Mupdf.PDFDocument, pageObj: Mupdf.PDFObject, pictures: Map<string, Uint8Array>, images: Map<Uint8Array, Mupdf.PDFObject>): void {
  let resources = pageObj.get('Resources');
  if (!resources.isDictionary()) pageObj.put('Resources', (resources = pdf.newDictionary()));
  let xobjects = resources.get('XObject');
  if (!xobjects.isDictionary()) resources.put('XObject', (xobjects = pdf.newDictionary()));
  for (const [name, data] of pictures) {
    let image = images.get(data);
    if (!image) {
      const png = passingPng(data)!;
      image = pdf.addRawStream(png.idat, { Type: pdf.newName('XObject'), Subtype: pdf.newName('Image') });
      putPngImageEntries(pdf, image, png, pdf.newName(png.colors === 1 ? 'DeviceGray' : 'DeviceRGB'));
      images.set(data, image);
    }
    xobjects.put(name, image);
  }
}
