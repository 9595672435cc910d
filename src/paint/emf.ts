import { averageColor, crop, decodeDib, type Rgb } from '../codecs/dib';
import { colorRef, Gdi, IDENTITY, multiply, stockObject, type DcState, type Font, type GdiObject, type Matrix } from './gdi';
import type { Painter } from './painter';
import { decode8, unSymbol } from './metafile-text';

const UNITS_PER_MM: Record<number, number> = { 2: 10, 3: 100, 4: 100 / 25.4, 5: 1000 / 25.4, 6: 1440 / 25.4 };
const MAX_RECORDS = 200_000;

export const isEmf = (b: Uint8Array) => b.length >= 88 && b[0] === 1 && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[40] === 0x20 && b[41] === 0x45 && b[42] === 0x4d && b[43] === 0x46;

/** Plays an EMF (EMF+ dual files: their EMF half) onto a painter in device units; false when not readable. */
export function playEmf(b: Uint8Array, painter: Painter): boolean {
  if (!isEmf(b)) return false;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const i32 = (o: number) => dv.getInt32(o, true);
  const u32 = (o: number) => dv.getUint32(o, true);
  const [bl, bt, br, bb] = [i32(8), i32(12), i32(16), i32(20)];
  const [fl, ft, fr, fb] = [i32(24), i32(28), i32(32), i32(36)];
  const [devX, devY, mmX, mmY] = [i32(72), i32(76), i32(80), i32(84)];
  const pxX = devX > 0 && mmX > 0 ? devX / mmX : 96 / 25.4, pxY = devY > 0 && mmY > 0 ? devY / mmY : 96 / 25.4;
  let view: [number, number, number, number] = [(fl * pxX) / 100, (ft * pxY) / 100, ((fr - fl) * pxX) / 100, ((fb - ft) * pxY) / 100];
  if (!(view[2] > 0 && view[3] > 0)) view = [bl, bt, br - bl + 1, bb - bt + 1];
  if (!(view[2] > 0 && view[3] > 0) || view.some((v) => !Number.isFinite(v))) return false;
  painter.begin(...view);

  const mapping = (s: DcState): Matrix => {
    let sx = 1, sy = 1;
    if (s.mapMode === 7 || s.mapMode === 8) {
      sx = s.winExt[0] ? s.vpExt[0] / s.winExt[0] : 1;
      sy = s.winExt[1] ? s.vpExt[1] / s.winExt[1] : 1;
      if (s.mapMode === 7) {
        const k = Math.min(Math.abs(sx), Math.abs(sy));
        sx = Math.sign(sx) * k;
        sy = Math.sign(sy) * k;
      }
    } else if (UNITS_PER_MM[s.mapMode]) {
      sx = pxX / UNITS_PER_MM[s.mapMode]!;
      sy = -pxY / UNITS_PER_MM[s.mapMode]!;
    }
    return [sx, 0, 0, sy, s.vpOrg[0] - s.winOrg[0] * sx, s.vpOrg[1] - s.winOrg[1] * sy];
  };
  const g = new Gdi(painter, mapping, Math.max(view[2], view[3]) / 1000 || 1);
  const objects = new Map<number, GdiObject>();
  const dib = (rec: number, offBmi: number, cbBmi: number, offBits: number, cbBits: number, size: number, alpha = false): Rgb | undefined => {
    if (cbBmi <= 0 || offBmi + cbBmi > size || offBits + cbBits > size) return undefined;
    return decodeDib(b.subarray(rec + offBmi, rec + offBmi + cbBmi), b.subarray(rec + offBits, rec + offBits + cbBits), alpha);
  };

  let o = 0;
  try {
    for (let n = 0; n < MAX_RECORDS && o + 8 <= b.length; n++) {
      const type = u32(o), size = u32(o + 4);
      if (size < 8 || size % 4 || o + size > b.length) break;
      const r = o;
      o += size;
      const at = (k: number) => (k + 4 <= size ? i32(r + k) : 0);
      const pts = (first: number, count: number, small: boolean): [number, number][] => {
        const step = small ? 4 : 8;
        const max = Math.max(0, Math.min(count, Math.floor((size - first) / step)));
        const list: [number, number][] = [];
        for (let i = 0; i < max; i++) {
          const p = r + first + i * step;
          list.push(small ? [dv.getInt16(p, true), dv.getInt16(p + 2, true)] : [i32(p), i32(p + 4)]);
        }
        return list;
      };
      switch (type) {
        case 14: // EOF
          o = b.length;
          break;
        case 2: case 85: // POLYBEZIER(16)
        case 5: case 88: // POLYBEZIERTO(16)
        case 3: case 86: // POLYGON(16)
        case 4: case 87: // POLYLINE(16)
        case 6: case 89: { // POLYLINETO(16)
          const small = type >= 85;
          const list = pts(28, u32(r + 24), small);
          if (!list.length) break;
          const kind = small ? type - 83 : type;
          if (kind === 2 || kind === 5) g.shape(g.bezier(list, kind === 5), false, true);
          else if (kind === 3) g.shape(g.poly(list, true), true, true);
          else g.shape(g.poly(list, false, kind === 6), false, true);
          if (kind === 5 || kind === 6) g.s.cp = list[list.length - 1]!;
          break;
        }
        case 7: case 8: case 90: case 91: { // POLYPOLYLINE / POLYPOLYGON (16)
          const small = type >= 90;
          const polys = Math.min(u32(r + 24), Math.floor((size - 32) / 4));
          let first = 32 + polys * 4;
          let d = '';
          for (let i = 0; i < polys; i++) {
            const c = u32(r + 32 + i * 4);
            d += g.poly(pts(first, c, small), type === 8 || type === 91);
            first += c * (small ? 4 : 8);
            if (first > size) break;
          }
          g.shape(d, type === 8 || type === 91, true);
          break;
        }
        case 9: g.s.winExt = [at(8), at(12)]; g.changed(); break;
        case 10: g.s.winOrg = [at(8), at(12)]; g.changed(); break;
        case 11: g.s.vpExt = [at(8), at(12)]; g.changed(); break;
        case 12: g.s.vpOrg = [at(8), at(12)]; g.changed(); break;
        case 17: g.s.mapMode = at(8); g.changed(); break;
        case 18: g.s.bkMode = at(8); break;
        case 19: g.s.polyFill = at(8); break;
        case 22: g.s.textAlign = at(8); break;
        case 24: g.s.textColor = colorRef(at(8)); break;
        case 25: g.s.bkColor = colorRef(at(8)); break;
        case 27: g.s.cp = [at(8), at(12)]; if (g.path !== undefined) g.path += `M${g.pt(at(8), at(12))}`; break;
        case 33: g.save(); break;
        case 34: g.restore(at(8)); break;
        case 35: case 36: {
          if (size < 32) break;
          const x: Matrix = [0, 4, 8, 12, 16, 20].map((k) => dv.getFloat32(r + 8 + k, true)) as Matrix;
          if (x.some((v) => !Number.isFinite(v))) break;
          const mode = type === 35 ? 4 : at(32);
          g.s.world = mode === 1 ? IDENTITY : mode === 2 ? multiply(x, g.s.world) : mode === 3 ? multiply(g.s.world, x) : mode === 4 ? x : g.s.world;
          g.changed();
          break;
        }
        case 37: { // SELECTOBJECT
          const ih = u32(r + 8);
          g.select(ih & 0x80000000 ? stockObject(ih & 0x7fffffff) : objects.get(ih));
          break;
        }
        case 38: objects.set(at(8), { kind: 'pen', style: at(12), width: at(16), color: colorRef(at(24)) }); break;
        case 95: { // EXTCREATEPEN
          const brushStyle = at(36);
          objects.set(at(8), { kind: 'pen', style: brushStyle === 1 ? 5 : at(28), width: at(32), color: colorRef(at(40)) });
          break;
        }
        case 39: objects.set(at(8), { kind: 'brush', style: at(12) === 1 ? 1 : 0, color: colorRef(at(16)) }); break;
        case 93: case 94: { // CREATEMONOBRUSH / CREATEDIBPATTERNBRUSHPT: drawn flat in the pattern's average colour
          const img = dib(r, at(16), at(20), at(24), at(28), size);
          const [cr, cg, cb] = img ? averageColor(img) : [128, 128, 128];
          objects.set(at(8), { kind: 'brush', style: 0, color: colorRef(cr | (cg << 8) | (cb << 16)) });
          break;
        }
        case 82: { // EXTCREATEFONTINDIRECTW
          if (size < 104) break;
          let face = '';
          for (let i = 0; i < 32; i++) {
            const c = dv.getUint16(r + 40 + i * 2, true);
            if (!c) break;
            face += String.fromCharCode(c);
          }
          const font: Font = { kind: 'font', height: at(12), escapement: at(20), weight: at(28), italic: !!b[r + 32], underline: !!b[r + 33], strike: !!b[r + 34], charset: b[r + 35] ?? 0, face };
          objects.set(at(8), font);
          break;
        }
        case 40: objects.delete(at(8)); break;
        case 49: case 99: case 122: objects.set(at(8), { kind: 'other' }); break;
        case 54: // LINETO
          g.shape(g.poly([[at(8), at(12)]], false, true), false, true);
          g.s.cp = [at(8), at(12)];
          break;
        case 42: g.shape(g.ellipse(at(8), at(12), at(16), at(20)), true, true); break;
        case 43: g.shape(g.rect(at(8), at(12), at(16), at(20)), true, true); break;
        case 44: g.shape(g.roundRect(at(8), at(12), at(16), at(20), at(24), at(28)), true, true); break;
        case 45: case 46: case 47: case 55: { // ARC, CHORD, PIE, ARCTO
          const kind = type === 46 ? 1 : type === 47 ? 2 : 0;
          g.shape(g.arc(kind, at(8), at(12), at(16), at(20), at(24), at(28), at(32), at(36)), kind !== 0, true);
          break;
        }
        case 59: g.beginPath(); break;
        case 60: g.endPath(); break;
        case 61: g.closeFigure(); break;
        case 68: g.endPath(); break;
        case 62: g.drawPath(true, false); break;
        case 63: g.drawPath(true, true); break;
        case 64: g.drawPath(false, true); break;
        case 67: g.clipToPath(at(8)); break; // SELECTCLIPPATH
        case 30: g.intersectClip(at(8), at(12), at(16), at(20)); break; // INTERSECTCLIPRECT
        case 75: { // EXTSELECTCLIPRGN: the region's rectangles are in device units (our output's)
          const cb = u32(r + 8), mode = at(12);
          let d = '';
          if (cb >= 32 && 16 + cb <= size) {
            const count = Math.min(u32(r + 16 + 8), (cb - 32) / 16);
            for (let i = 0; i < count; i++) {
              const q = r + 16 + 32 + i * 16;
              const [l, t, rr, bb] = [i32(q), i32(q + 4), i32(q + 8), i32(q + 12)];
              d += `M${l} ${t}L${rr} ${t}L${rr} ${bb}L${l} ${bb}Z`;
            }
          }
          g.setClip(d || undefined, mode);
          break;
        }
        case 83: case 84: { // EXTTEXTOUTA / EXTTEXTOUTW
          if (size < 76) break;
          const chars = u32(r + 44), offString = u32(r + 48), options = u32(r + 52), offDx = u32(r + 72);
          const wide = type === 84;
          if (chars > 100_000 || offString + chars * (wide ? 2 : 1) > size) break;
          if (options & 2) g.fillRect(at(56), at(60), at(64), at(68), g.s.bkColor);
          let text = '';
          if (wide) for (let i = 0; i < chars; i++) text += String.fromCharCode(dv.getUint16(r + offString + i * 2, true));
          else text = decode8(b.subarray(r + offString, r + offString + chars), g.s.font.charset, g.s.font.face);
          if (wide) text = unSymbol(text, g.s.font.face);
          const dx: number[] = [];
          if (offDx && offDx + chars * 4 <= size && !(options & 0x10)) for (let i = 0; i < chars; i++) dx.push(i32(r + offDx + i * 4));
          g.text(at(36), at(40), text, dx.length ? dx : undefined, options & 4 ? [at(56), at(60), at(64), at(68)] : undefined);
          break;
        }
        case 76: case 77: case 114: { // BITBLT, STRETCHBLT, ALPHABLEND
          if (size < 100) break;
          const x = at(24), y = at(28), w = at(32), h = at(36), rop = u32(r + 40) >>> 0;
          // ALPHABLEND's blend function: AC_SRC_ALPHA (byte 3 = 1) means per-pixel premultiplied alpha.
          const img = dib(r, u32(r + 84), u32(r + 88), u32(r + 92), u32(r + 96), size, type === 114 && b[r + 43] === 1);
          if (img) {
            const [sx, sy] = [at(44), at(48)];
            const [sw, sh] = type !== 76 && size >= 108 ? [at(100), at(104)] : [w, h];
            g.blit(crop(img, sx, sy, sw, sh), x, y, w, h, type === 114 ? 0xcc0020 : rop);
          } else if (rop === 0x00f00021 && g.s.brush.style !== 1) g.fillRect(x, y, x + w, y + h, g.s.brush.color);
          else if (rop === 0x00000042) g.fillRect(x, y, x + w, y + h, '#000000');
          else if (rop === 0x00ff0062) g.fillRect(x, y, x + w, y + h, '#ffffff');
          break;
        }
        case 80: case 81: { // SETDIBITSTODEVICE, STRETCHDIBITS
          if (size < 80) break;
          const img = dib(r, u32(r + 48), u32(r + 52), u32(r + 56), u32(r + 60), size);
          if (!img) break;
          const x = at(24), y = at(28), sx = at(32), sy = at(36), sw = at(40), sh = at(44);
          const [w, h] = type === 81 ? [at(72), at(76)] : [sw, sh];
          g.blit(type === 81 ? crop(img, sx, img.height - sy - sh, sw, sh) : img, x, y, w, h, type === 81 ? u32(r + 68) >>> 0 : 0xcc0020);
          break;
        }
      }
    }
  } catch {
    // A malformed record ends the drawing; what was drawn so far stays.
  }
  g.finish();
  return true;
}
