import { averageColor, crop, decodeDib } from '../codecs/dib';
import { colorRef, Gdi, type DcState, type GdiObject, type Matrix } from './gdi';
import type { Painter } from './painter';
import { decode8 } from './metafile-text';

const MAX_RECORDS = 200_000;
/** Records that create an object in the lowest free slot of the object table. */
const CREATES = new Set([0x02fa, 0x02fc, 0x02fb, 0x00f7, 0x01f9, 0x0142, 0x06ff]);

/** Plays a WMF (with or without the placeable header) onto a painter; false when not readable. */
export function playWmf(b: Uint8Array, painter: Painter): boolean {
  if (b.length < 18) return false;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u16 = (o: number) => (o + 2 <= b.length ? dv.getUint16(o, true) : 0);
  const i16 = (o: number) => (o + 2 <= b.length ? dv.getInt16(o, true) : 0);
  const u32 = (o: number) => (o + 4 <= b.length ? dv.getUint32(o, true) : 0);
  let o = 0;
  let bbox: [number, number, number, number] | undefined;
  let inch = 0;
  if (u32(0) === 0x9ac6cdd7) {
    bbox = [i16(6), i16(8), i16(10), i16(12)];
    inch = u16(14);
    o = 22;
  }
  const type = u16(o), headerWords = u16(o + 2);
  if ((type !== 1 && type !== 2) || headerWords !== 9 || o + 18 > b.length) return false;
  o += 18;

  // The output frame: the placeable box, else the first window set by the records.
  let win0: [number, number, number, number] | undefined = bbox && bbox[2] !== bbox[0] && bbox[3] !== bbox[1] ? [bbox[0], bbox[1], bbox[2] - bbox[0], bbox[3] - bbox[1]] : undefined;
  if (!win0) {
    let org: [number, number] = [0, 0], ext: [number, number] | undefined;
    for (let p = o, n = 0; p + 6 <= b.length && n < MAX_RECORDS; n++) {
      const words = u32(p), fn = u16(p + 4);
      if (words < 3 || p + words * 2 > b.length || fn === 0) break;
      if (fn === 0x020b) org = [i16(p + 8), i16(p + 6)];
      if (fn === 0x020c) ext = [i16(p + 8), i16(p + 6)];
      if (ext && ext[0] && ext[1]) break;
      p += words * 2;
    }
    if (!ext || !ext[0] || !ext[1]) return false;
    win0 = [org[0], org[1], ext[0], ext[1]];
  }
  const W = Math.abs(win0[2]), H = Math.abs(win0[3]);
  painter.begin(0, 0, W, H);
  // Logical → output: the current window is stretched over the frame [0, W] × [0, H] (a negative extent flips).
  const mapping = (s: DcState): Matrix => {
    const sx = s.winExt[0] ? W / s.winExt[0] : 1, sy = s.winExt[1] ? H / s.winExt[1] : 1;
    const ox = s.winExt[0] < 0 ? W : 0, oy = s.winExt[1] < 0 ? H : 0;
    return [sx, 0, 0, sy, ox - s.winOrg[0] * sx, oy - s.winOrg[1] * sy];
  };
  const g = new Gdi(painter, mapping, inch > 0 ? inch / 96 : Math.max(W, H) / 1000);
  g.s.winOrg = [win0[0], win0[1]];
  g.s.winExt = [win0[2], win0[3]];
  if (win0[2] < 0) g.s.winOrg[0] += win0[2];
  g.changed();
  const objects: (GdiObject | undefined)[] = [];
  const create = (obj: GdiObject) => {
    let i = objects.findIndex((x) => !x);
    if (i < 0) i = objects.length;
    if (i < 65536) objects[i] = obj;
  };

  try {
    for (let n = 0; n < MAX_RECORDS && o + 6 <= b.length; n++) {
      const words = u32(o), fn = u16(o + 4);
      if (words < 3 || o + words * 2 > b.length || fn === 0) break;
      const r = o + 6;
      const size = words * 2 - 6;
      o += words * 2;
      const p = (k: number) => (k + 2 <= size ? i16(r + k) : 0);
      const points = (first: number, count: number): [number, number][] => {
        const list: [number, number][] = [];
        for (let i = 0; i < count && first + i * 4 + 4 <= size; i++) list.push([p(first + i * 4), p(first + i * 4 + 2)]);
        return list;
      };
      const dibAt = (k: number) => (k < size ? decodeDib(b.subarray(r + k, r + size), undefined) : undefined);
      switch (fn) {
        case 0x0102: g.s.bkMode = p(0); break;
        case 0x0103: g.s.mapMode = p(0); break;
        case 0x0106: g.s.polyFill = p(0); break;
        case 0x0209: g.s.textColor = colorRef(u32(r)); break;
        case 0x0201: g.s.bkColor = colorRef(u32(r)); break;
        case 0x012e: g.s.textAlign = p(0); break;
        case 0x020b: g.s.winOrg = [p(2), p(0)]; g.changed(); break;
        case 0x020c: g.s.winExt = [p(2), p(0)]; g.changed(); break;
        case 0x020f: g.s.winOrg = [g.s.winOrg[0] + p(2), g.s.winOrg[1] + p(0)]; g.changed(); break;
        case 0x0410: // SCALEWINDOWEXT: yDenom, yNum, xDenom, xNum
          if (p(0) && p(4)) g.s.winExt = [(g.s.winExt[0] * p(6)) / p(4), (g.s.winExt[1] * p(2)) / p(0)];
          g.changed();
          break;
        case 0x0416: g.intersectClip(p(6), p(4), p(2), p(0)); break; // INTERSECTCLIPRECT: bottom, right, top, left
        case 0x001e: g.save(); break;
        case 0x0127: g.restore(p(0)); break;
        case 0x0214: g.s.cp = [p(2), p(0)]; break;
        case 0x0213:
          g.shape(g.poly([[p(2), p(0)]], false, true), false, true);
          g.s.cp = [p(2), p(0)];
          break;
        case 0x041b: g.shape(g.rect(p(6), p(4), p(2), p(0)), true, true); break;
        case 0x061c: g.shape(g.roundRect(p(10), p(8), p(6), p(4), p(2), p(0)), true, true); break;
        case 0x0418: g.shape(g.ellipse(p(6), p(4), p(2), p(0)), true, true); break;
        case 0x0817: case 0x081a: case 0x0830: {
          const kind = fn === 0x0817 ? 0 : fn === 0x0830 ? 1 : 2;
          g.shape(g.arc(kind, p(14), p(12), p(10), p(8), p(6), p(4), p(2), p(0)), kind !== 0, true);
          break;
        }
        case 0x0324: g.shape(g.poly(points(2, p(0)), true), true, true); break;
        case 0x0325: g.shape(g.poly(points(2, p(0)), false), false, true); break;
        case 0x0538: {
          const polys = p(0);
          let first = 2 + polys * 2, d = '';
          for (let i = 0; i < polys && first < size; i++) {
            const c = p(2 + i * 2);
            d += g.poly(points(first, c), true);
            first += c * 4;
          }
          g.shape(d, true, true);
          break;
        }
        case 0x02fa: create({ kind: 'pen', style: u16(r), width: p(2), color: colorRef(u32(r + 6)) }); break;
        case 0x02fc: create({ kind: 'brush', style: u16(r) === 1 ? 1 : 0, color: colorRef(u32(r + 2)) }); break;
        case 0x0142: { // DIBCREATEPATTERNBRUSH: a flat fill in the pattern's average colour
          const img = dibAt(4);
          const [cr, cg, cb] = img ? averageColor(img) : [128, 128, 128];
          create({ kind: 'brush', style: 0, color: colorRef(cr | (cg << 8) | (cb << 16)) });
          break;
        }
        case 0x02fb: {
          let face = '';
          for (let i = 18; i < Math.min(size, 50) && b[r + i]; i++) face += String.fromCharCode(b[r + i]!);
          create({ kind: 'font', height: p(0), escapement: p(4), weight: p(8), italic: !!b[r + 10], underline: !!b[r + 11], strike: !!b[r + 12], charset: b[r + 13] ?? 0, face });
          break;
        }
        case 0x012d: g.select(objects[u16(r)]); break;
        case 0x01f0: objects[u16(r)] = undefined; break;
        case 0x0521: { // TEXTOUT: count, string (even length), y, x
          const count = u16(r);
          const padded = count + (count & 1);
          if (2 + padded + 4 > size) break;
          g.text(p(4 + padded), p(2 + padded), decode8(b.subarray(r + 2, r + 2 + count), g.s.font.charset, g.s.font.face));
          break;
        }
        case 0x0a32: { // EXTTEXTOUT: y, x, count, options, [rect], string, [dx]
          const count = u16(r + 4), opts = u16(r + 6);
          let k = 8;
          if (opts & 6) {
            if (opts & 2) g.fillRect(p(8), p(10), p(12), p(14), g.s.bkColor);
            k += 8;
          }
          if (k + count > size) break;
          const text = decode8(b.subarray(r + k, r + k + count), g.s.font.charset, g.s.font.face);
          k += count + (count & 1);
          const dx: number[] = [];
          if (k + count * 2 <= size) for (let i = 0; i < count; i++) dx.push(p(k + i * 2));
          g.text(p(2), p(0), text, dx.length ? dx : undefined, opts & 4 ? [p(8), p(10), p(12), p(14)] : undefined);
          break;
        }
        case 0x061d: { // PATBLT: rop, height, width, y, x
          const rop = u32(r), h = p(4), w = p(6), y = p(8), x = p(10);
          const color = rop === 0x42 ? '#000000' : rop === 0xff0062 ? '#ffffff' : g.s.brush.style !== 1 ? g.s.brush.color : undefined;
          if (color) g.fillRect(x, y, x + w, y + h, color);
          break;
        }
        case 0x0940: case 0x0b41: case 0x0f43: { // DIBBITBLT, DIBSTRETCHBLT, STRETCHDIB
          const stretch = fn !== 0x0940;
          const base = fn === 0x0f43 ? 6 : 4; // after rop (and colour usage)
          // Without a bitmap (the record is just its parameters) a reserved word follows the source origin.
          const fixed = base + (stretch ? 16 : 12);
          const noBitmap = fn !== 0x0f43 && size <= fixed + 2;
          const q = (i: number) => p(base + i * 2 + (noBitmap && i >= (stretch ? 4 : 2) ? 2 : 0));
          const [sh, sw, sy, sx] = stretch ? [q(0), q(1), q(2), q(3)] : [0, 0, q(0), q(1)];
          const off = stretch ? 4 : 2;
          const [dh, dw, dy, dx] = [q(off), q(off + 1), q(off + 2), q(off + 3)];
          const img = noBitmap ? undefined : dibAt(fixed);
          // StretchDIBits counts a bottom-up DIB's source rows from its bottom; the blits take the DIB
          // as a bitmap selected into a device context, counted from the top (an icon's mask, stored
          // with its image below it, is the top half).
          if (img) g.blit(fn === 0x0f43 ? crop(img, sx, img.height - sy - sh, sw, sh) : crop(img, sx, sy, stretch ? sw : dw, stretch ? sh : dh), dx, dy, dw, dh, u32(r) >>> 0);
          else if (u32(r) === 0x42 || u32(r) === 0xff0062) g.fillRect(dx, dy, dx + dw, dy + dh, u32(r) === 0x42 ? '#000000' : '#ffffff');
          break;
        }
        default:
          if (CREATES.has(fn)) create({ kind: 'other' });
      }
    }
  } catch {
    // A malformed record ends the drawing; what was drawn so far stays.
  }
  g.finish();
  return true;
}
