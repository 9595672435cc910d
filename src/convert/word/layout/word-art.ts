/**
 * WordArt (VML v:textpath; the watermark of Word's Design > Watermark is one): its text stretched
 * to fill the shape's box, as Word and LibreOffice draw "fit path" text, in the shape's fill
 * colour and opacity, turned with the shape.
 */
import type * as Mupdf from 'mupdf';
import { substituteFamily } from '../../../fonts/catalog';
import type { Shape } from '../model/index';
import type { FontBook } from '../../../layout/text/font-book';
import { rgb } from './shape-paint';
import { rotationAbout, type Box } from '../../office/shape-outline';

type MupdfModule = typeof Mupdf;

/** Share of the em above the baseline that capitals take, and below it that descenders take (Arial, Times, Calibri: about). */
const CAP_HEIGHT = 0.72;
const DESCENT = 0.21;
/** Letters that reach below the baseline: with them in the text, the box holds descenders too. */
const DESCENDERS = /[gjpqyQJрудфщцзДЦЩ,;]/;

/** Draws the shape's WordArt text over `box`; nothing when no face has its letters. */
export function paintWordArt(mupdf: MupdfModule, device: Mupdf.Device, fonts: Pick<FontBook, 'face' | 'familyFor'>, shape: Shape, box: Box): void {
  const art = shape.wordArt;
  if (!art || !(box.width > 0 && box.height > 0)) return;
  const family = substituteFamily(art.font);
  const glyphs: { font: Mupdf.Font; gid: number; cp: number; x: number }[] = [];
  let x = 0; // in ems
  for (const ch of art.text.replace(/[\u0000-\u001f]/g, ' ')) {
    const cp = ch.codePointAt(0)!;
    const font = fonts.face(fonts.familyFor(family, cp), !!art.bold, !!art.italic);
    if (!font) continue;
    const gid = font.encodeCharacter(cp);
    glyphs.push({ font, gid, cp, x });
    x += font.advanceGlyph(gid, 0);
  }
  if (!glyphs.length || x <= 0) return;
  // The line's width fills the box's; capitals (and descenders, if any) fill its height.
  const sx = box.width / x;
  const sy = box.height / (CAP_HEIGHT + (DESCENDERS.test(art.text) ? DESCENT : 0));
  const baseline = box.y + CAP_HEIGHT * sy;
  const text = new mupdf.Text();
  try {
    for (const g of glyphs) text.showGlyph(g.font, [sx, 0, 0, -sy, box.x + g.x * sx, baseline], g.gid, g.cp, 0);
    const ctm = shape.rotation ? rotationAbout(box, shape.rotation) : mupdf.Matrix.identity;
    device.fillText(text, ctm, mupdf.ColorSpace.DeviceRGB, rgb(shape.fill ?? 'C0C0C0'), art.opacity ?? 1);
  } finally {
    text.destroy();
  }
}
