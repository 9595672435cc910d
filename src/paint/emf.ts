/**
 * EMF player: the header gives the picture's frame and the device's pixels per millimetre; the
 * records (emf-records.ts) then play through the GDI device context (gdi.ts) onto a painter.
 */
import { Gdi, type DcState, type GdiObject, type Matrix } from './gdi';
import type { Painter } from './painter';
import { EMF_RECORDS, EmfRecord } from './emf-records';

const UNITS_PER_MM: Record<number, number> = { 2: 10, 3: 100, 4: 100 / 25.4, 5: 1000 / 25.4, 6: 1440 / 25.4 };
const MAX_RECORDS = 200_000;
const EOF = 14;

export const isEmf = (b: Uint8Array) => b.length >= 88 && b[0] === 1 && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[40] === 0x20 && b[41] === 0x45 && b[42] === 0x4d && b[43] === 0x46;

/** Plays an EMF (EMF+ dual files: their EMF half) onto a painter in device units; false when not readable. */
export function playEmf(b: Uint8Array, painter: Painter): boolean {
  if (!isEmf(b)) return false;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const frame = emfFrame(dv);
  if (!frame) return false;
  const { view, pxX, pxY } = frame;
  painter.begin(...view);

  const g = new Gdi(painter, (s) => emfMapping(s, pxX, pxY), Math.max(view[2], view[3]) / 1000 || 1);
  const play = { g, objects: new Map<number, GdiObject>() };
  let o = 0;
  try {
    for (let n = 0; n < MAX_RECORDS && o + 8 <= b.length; n++) {
      const type = dv.getUint32(o, true), size = dv.getUint32(o + 4, true);
      if (size < 8 || size % 4 || o + size > b.length) break;
      if (type === EOF) break;
      const rec = new EmfRecord(type, b, dv, o, size);
      o += size;
      EMF_RECORDS.get(type)?.(rec, play);
    }
  } catch {
    // A malformed record ends the drawing; what was drawn so far stays.
  }
  g.finish();
  return true;
}

/**
 * The picture's frame in device pixels (rclFrame, in 0.01 mm, through the device's pixels per
 * millimetre; else rclBounds) and those pixels per millimetre; undefined when neither frame is usable.
 */
function emfFrame(dv: DataView): { view: [number, number, number, number]; pxX: number; pxY: number } | undefined {
  const i32 = (o: number) => dv.getInt32(o, true);
  const [bl, bt, br, bb] = [i32(8), i32(12), i32(16), i32(20)];
  const [fl, ft, fr, fb] = [i32(24), i32(28), i32(32), i32(36)];
  const [devX, devY, mmX, mmY] = [i32(72), i32(76), i32(80), i32(84)];
  const pxX = devX > 0 && mmX > 0 ? devX / mmX : 96 / 25.4, pxY = devY > 0 && mmY > 0 ? devY / mmY : 96 / 25.4;
  let view: [number, number, number, number] = [(fl * pxX) / 100, (ft * pxY) / 100, ((fr - fl) * pxX) / 100, ((fb - ft) * pxY) / 100];
  if (!(view[2] > 0 && view[3] > 0)) view = [bl, bt, br - bl + 1, bb - bt + 1];
  if (!(view[2] > 0 && view[3] > 0) || view.some((v) => !Number.isFinite(v))) return undefined;
  return { view, pxX, pxY };
}

/** Logical → device: the window stretched over the viewport (isotropic or not), or a metric map mode's units. */
function emfMapping(s: DcState, pxX: number, pxY: number): Matrix {
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
}
