import type * as Mupdf from 'mupdf';
import type { Family } from '../fonts/catalog';
import type { Rgb } from '../codecs/dib';
import { multiply } from './gdi';
import { walkPath, type ClipArea, type Fill, type Matrix, type Painter, type Stroke, type TextRun } from './painter';

type MupdfModule = typeof Mupdf;

/** Where text faces come from (the layout's FontBook). */
export interface FaceSource {
  face(family: Family, bold: boolean, italic: boolean): Mupdf.Font | undefined;
  familyFor(family: Family, codePoint: number): Family;
}

const CAP = { round: 'Round', square: 'Square', butt: 'Butt' } as const;
const JOIN = { round: 'Round', bevel: 'Bevel', miter: 'Miter' } as const;
const rgb = (hex: string): [number, number, number] => {
  const v = parseInt(hex.slice(1), 16) || 0;
  return [((v >> 16) & 0xff) / 255, ((v >> 8) & 0xff) / 255, (v & 0xff) / 255];
};
const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/**
 * A painter that draws onto a MuPDF device as vector paths, real text (our faces, so it can be
 * searched and copied) and images. `place` maps the unit square to the picture's box on the page,
 * as an image's ctm does; the metafile's frame is stretched over it and clips what it draws.
 */
export class MupdfPainter implements Painter {
  private ctm: Matrix = [1, 0, 0, 1, 0, 0];
  private clips = 0;
  /** Clip areas pushed on the device, in order (after the frame's). */
  private applied: ClipArea[] = [];

  constructor(
    private readonly mupdf: MupdfModule,
    private readonly device: Mupdf.Device,
    private readonly place: Matrix,
    private readonly fonts: FaceSource,
  ) {}

  begin(x: number, y: number, w: number, h: number): void {
    this.ctm = multiply([1 / w, 0, 0, 1 / h, -x / w, -y / h], this.place);
    const clip = new this.mupdf.Path();
    clip.rect(x, y, x + w, y + h);
    this.device.clipPath(clip, false, this.ctm);
    clip.destroy();
    this.clips++;
  }

  /** Closes the clips opened; call once drawing is over, even after an error. */
  end(): void {
    this.clip([]);
    for (; this.clips > 0; this.clips--) this.device.popClip();
  }

  clip(areas: readonly ClipArea[]): void {
    let keep = 0;
    while (keep < this.applied.length && keep < areas.length && this.applied[keep] === areas[keep]) keep++;
    while (this.applied.length > keep) {
      this.applied.pop();
      this.device.popClip();
    }
    for (const area of areas.slice(keep)) {
      this.pushClip(area.d);
      this.applied.push(area);
    }
  }

  private pushClip(d: string): void {
    const path = new this.mupdf.Path();
    try {
      walkPath(d, path);
      this.device.clipPath(path, false, this.ctm);
    } finally {
      path.destroy();
    }
  }

  path(d: string, fill: Fill | undefined, stroke: Stroke | undefined): void {
    const { mupdf, device } = this;
    const path = new mupdf.Path();
    try {
      walkPath(d, path);
      if (fill) device.fillPath(path, fill.evenOdd, this.ctm, mupdf.ColorSpace.DeviceRGB, rgb(fill.color), 1);
      if (stroke) {
        const state = new mupdf.StrokeState({
          lineCap: CAP[stroke.cap], lineJoin: JOIN[stroke.join], lineWidth: stroke.width, miterLimit: 10,
          dashes: stroke.dash.length ? stroke.dash : undefined,
        });
        device.strokePath(path, state, this.ctm, mupdf.ColorSpace.DeviceRGB, rgb(stroke.color), 1);
        state.destroy();
      }
    } finally {
      path.destroy();
    }
  }

  text(t: TextRun): void {
    const { mupdf, device, fonts } = this;
    const str = t.text.replace(/[\u0000-\u001f]/g, ' ');
    const glyphs: { font: Mupdf.Font; gid: number; cp: number; x: number; synthItalic: boolean }[] = [];
    let x = 0;
    for (let i = 0; i < str.length; i++) {
      let cp = str.charCodeAt(i), units = 1;
      const lo = str.charCodeAt(i + 1);
      if (cp >= 0xd800 && cp < 0xdc00 && lo >= 0xdc00 && lo < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        units = 2;
      }
      const font = fonts.face(fonts.familyFor(t.family, cp), t.bold, t.italic);
      let advance = 0;
      if (font) {
        const gid = font.encodeCharacter(cp);
        glyphs.push({ font, gid, cp, x, synthItalic: t.italic && !font.isItalic() });
        advance = font.advanceGlyph(gid, 0) * t.em;
      }
      if (t.advances) advance = t.advances.slice(i, i + units).reduce((a, b) => a + b, 0);
      x += advance;
      i += units - 1;
    }
    if (!glyphs.length) return;
    const shift = t.anchor === 'middle' ? -x / 2 : t.anchor === 'end' ? -x : 0;
    const turn = mupdf.Matrix.rotate(t.angle) as Matrix;
    const toOut: Matrix = [turn[0], turn[1], turn[2], turn[3], t.x, t.y];
    const text = new mupdf.Text();
    try {
      for (const g of glyphs) {
        // Glyph space is y-up; faces without an italic are slanted as MuPDF's HTML engine does.
        const trm = multiply([t.em, 0, g.synthItalic ? 0.2 * t.em : 0, -t.em, shift + g.x, t.base], toOut);
        text.showGlyph(g.font, trm, g.gid, g.cp, 0);
      }
      if (t.clip) {
        this.pushClip(t.clip);
        try {
          device.fillText(text, this.ctm, mupdf.ColorSpace.DeviceRGB, rgb(t.color), 1);
        } finally {
          device.popClip();
        }
      } else device.fillText(text, this.ctm, mupdf.ColorSpace.DeviceRGB, rgb(t.color), 1);
    } finally {
      text.destroy();
    }
    // Underline and strike-through: thin bars along the run.
    const bars = [t.underline && 0.12, t.strike && -0.28].filter((v): v is number => typeof v === 'number');
    for (const at of bars) {
      const y0 = t.base + at * t.em, y1 = y0 + 0.06 * t.em;
      const corners = [apply(toOut, shift, y0), apply(toOut, shift + x, y0), apply(toOut, shift + x, y1), apply(toOut, shift, y1)];
      this.path(`M${corners.map((c) => `${c[0]} ${c[1]}`).join('L')}Z`, { color: t.color, evenOdd: false }, undefined);
    }
  }

  image(img: Rgb, at: Matrix): void {
    const { mupdf } = this;
    // Samples written straight into a pixmap (no PNG round trip); alpha is premultiplied there.
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, img.width, img.height], !!img.alpha);
    let image: Mupdf.Image;
    try {
      const samples = pix.getPixels(), stride = pix.getStride(), n = img.alpha ? 4 : 3;
      const { rgb, alpha } = img;
      for (let y = 0, p = 0; y < img.height; y++)
        for (let x = 0, o = y * stride; x < img.width; x++, p++, o += n) {
          const a = alpha ? alpha[p]! : 255;
          samples[o] = (rgb[p * 3]! * a) / 255;
          samples[o + 1] = (rgb[p * 3 + 1]! * a) / 255;
          samples[o + 2] = (rgb[p * 3 + 2]! * a) / 255;
          if (alpha) samples[o + 3] = a;
        }
      image = new mupdf.Image(pix);
    } finally {
      pix.destroy();
    }
    try {
      this.device.fillImage(image, multiply(at, this.ctm), 1);
    } finally {
      image.destroy();
    }
  }
}
