/**
 * Pictures. Inline: a 0x01 character with fSpec whose sprmCPicLocation points at a PICF in the Data
 * stream (the size and scaling), followed by the shape and its BLIP. Floating: a 0x08 character
 * anchoring a shape listed in PlcSpaMom (position and wrap) whose picture is in the drawing group.
 */
import { shownCrop, type FloatingPlacement, type Inline } from '../../model/index';
import { i16, i32, readPlc, u16, u32, u8 } from '../../../../codecs/binary';
import { firstBlip, type Blip, type DrawingGroup } from '../../../office/officeart';

type ImageInline = Extract<Inline, { kind: 'image' }>;

/** Recognises image bytes that carry no OfficeArt wrapper (Word 6 metafiles and bitmaps). */
function sniff(data: Uint8Array): string | undefined {
  if (data[0] === 0x89 && data[1] === 0x50) return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8) return 'image/jpeg';
  if (data[0] === 0x42 && data[1] === 0x4d) return 'image/bmp';
  return undefined;
}

export function readInlinePicture(dataStream: Uint8Array | undefined, fcPic: number, word: Uint8Array): ImageInline | undefined {
  if (!dataStream || fcPic + 68 > dataStream.length) return undefined;
  const lcb = i32(dataStream, fcPic);
  const cbHeader = u16(dataStream, fcPic + 4);
  if (lcb < cbHeader || cbHeader < 0x3a || fcPic + lcb > dataStream.length) return undefined;
  const mm = i16(dataStream, fcPic + 6);
  const dxaGoal = i16(dataStream, fcPic + 28);
  const dyaGoal = i16(dataStream, fcPic + 30);
  const mx = u16(dataStream, fcPic + 32) || 1000;
  const my = u16(dataStream, fcPic + 34) || 1000;
  const cropL = i16(dataStream, fcPic + 36);
  const cropT = i16(dataStream, fcPic + 38);
  const cropR = i16(dataStream, fcPic + 40);
  const cropB = i16(dataStream, fcPic + 42);
  const width = (((dxaGoal - cropL - cropR) * mx) / 1000) / 20;
  const height = (((dyaGoal - cropT - cropB) * my) / 1000) / 20;
  let start = fcPic + cbHeader;
  // MM_SHAPEFILE pictures name a linked file first.
  if (mm === 0x66) start += 1 + u8(dataStream, start);
  const end = fcPic + lcb;
  let blip: Blip | undefined;
  if (mm === 0x64 || mm === 0x66) blip = firstBlip(dataStream, start, end, word);
  else {
    // Pre-OfficeArt picture: the bytes after the header are a metafile or bitmap as is.
    const data = dataStream.subarray(start, end);
    blip = { data, contentType: sniff(data) ?? 'image/x-wmf' };
  }
  if (!blip || width <= 0 || height <= 0) return undefined;
  const picture: ImageInline = { kind: 'image', data: blip.data, contentType: blip.contentType, width, height };
  // The crop, in twips of the picture's own size (dxaGoal, dyaGoal): the part shown fills the box.
  const part = (v: number, of: number) => (of > 0 ? Math.min(Math.max(v / of, 0), 0.99) : 0);
  const crop = shownCrop({ left: part(cropL, dxaGoal), top: part(cropT, dyaGoal), right: part(cropR, dxaGoal), bottom: part(cropB, dyaGoal) });
  if (crop) picture.crop = crop;
  return picture;
}

export interface Anchor {
  spid: number;
  /** Bounding rectangle in twips relative to the anchor reference. */
  left: number;
  top: number;
  right: number;
  bottom: number;
  placement: FloatingPlacement;
}

const WRAP: FloatingPlacement['wrap'][] = ['square', 'topAndBottom', 'square', 'inFront', 'tight', 'tight'];

/** PlcSpaMom / PlcSpaHdr: where each floating shape sits, by the CP of its 0x08 anchor. */
export function readAnchors(table: Uint8Array, fc: number, lcb: number): Map<number, Anchor> {
  const plc = readPlc(table, fc, lcb, 26);
  const out = new Map<number, Anchor>();
  plc.data.forEach((spa, i) => {
    const flags = u16(spa, 20);
    const bx = (flags >> 1) & 3;
    const by = (flags >> 3) & 3;
    const wr = (flags >> 5) & 0xf;
    const below = (flags & 0x4000) !== 0;
    const left = i32(spa, 4);
    const top = i32(spa, 8);
    let wrap = WRAP[wr] ?? 'square';
    if (wr === 3) wrap = below ? 'behind' : 'inFront';
    out.set(plc.positions[i]!, {
      spid: u32(spa, 0),
      left,
      top,
      right: i32(spa, 12),
      bottom: i32(spa, 16),
      placement: {
        x: left / 20,
        y: top / 20,
        relativeX: (['margin', 'page', 'column', 'column'] as const)[bx]!,
        relativeY: (['margin', 'page', 'paragraph', 'paragraph'] as const)[by]!,
        wrap,
      },
    });
  });
  return out;
}

export function floatingPicture(anchor: Anchor, drawings: DrawingGroup): ImageInline | undefined {
  const pib = drawings.shapes.get(anchor.spid)?.pib;
  const blip = pib ? drawings.blip(pib) : undefined;
  if (!blip) return undefined;
  const width = (anchor.right - anchor.left) / 20;
  const height = (anchor.bottom - anchor.top) / 20;
  if (width <= 0 || height <= 0) return undefined;
  return { kind: 'image', data: blip.data, contentType: blip.contentType, width, height, floating: anchor.placement };
}

/**
 * Text box stories (PlcftxbxTxt / PlcfHdrtxbxTxt): each FTXBXS names the shape (lid) whose text is
 * the range up to the next CP. Returns shape id → absolute CP range.
 */
export function readTextboxStories(table: Uint8Array, fc: number, lcb: number, base: number): Map<number, { start: number; end: number }> {
  const plc = readPlc(table, fc, lcb, 22);
  const out = new Map<number, { start: number; end: number }>();
  plc.data.forEach((ftxbxs, i) => {
    const reusable = u16(ftxbxs, 8) !== 0;
    const lid = i32(ftxbxs, 14);
    const start = plc.positions[i]!;
    const end = plc.positions[i + 1]!;
    if (!reusable && end > start) out.set(lid, { start: base + start, end: base + end });
  });
  return out;
}
