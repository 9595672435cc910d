/**
 * WMF player: the header (after the placeable header, when there is one) and the frame, from the
 * placeable box or the first window the records set; the records (wmf-records.ts) then play through
 * the GDI device context (gdi.ts) onto a painter.
 */
import { Gdi, type DcState, type GdiObject, type Matrix } from './gdi';
import type { Painter } from './painter';
import { WMF_RECORDS, WmfBytes, WmfRecord, type WmfPlayback } from './wmf-records';

const MAX_RECORDS = 200_000;

type Box = [number, number, number, number];

/** Plays a WMF (with or without the placeable header) onto a painter; false when not readable. */
export function playWmf(b: Uint8Array, painter: Painter): boolean {
  if (b.length < 18) return false;
  const file = new WmfBytes(b);
  const header = readHeader(file);
  if (!header) return false;
  const win0 = header.frame ?? firstWindow(file, header.records);
  if (!win0) return false;
  const W = Math.abs(win0[2]), H = Math.abs(win0[3]);
  painter.begin(0, 0, W, H);
  // Logical → output: the current window is stretched over the frame [0, W] × [0, H] (a negative extent flips).
  const mapping = (s: DcState): Matrix => {
    const sx = s.winExt[0] ? W / s.winExt[0] : 1, sy = s.winExt[1] ? H / s.winExt[1] : 1;
    const ox = s.winExt[0] < 0 ? W : 0, oy = s.winExt[1] < 0 ? H : 0;
    return [sx, 0, 0, sy, ox - s.winOrg[0] * sx, oy - s.winOrg[1] * sy];
  };
  const g = new Gdi(painter, mapping, header.inch > 0 ? header.inch / 96 : Math.max(W, H) / 1000);
  g.s.winOrg = [win0[0], win0[1]];
  g.s.winExt = [win0[2], win0[3]];
  if (win0[2] < 0) g.s.winOrg[0] += win0[2];
  g.changed();
  playRecords(file, header.records, g);
  g.finish();
  return true;
}

/**
 * The placeable header's box (when it has an area) and units per inch, and where the records start
 * after the standard header; undefined when that header is not a WMF's.
 */
function readHeader(file: WmfBytes): { frame?: Box; inch: number; records: number } | undefined {
  let o = 0;
  let bbox: Box | undefined;
  let inch = 0;
  if (file.u32(0) === 0x9ac6cdd7) {
    bbox = [file.i16(6), file.i16(8), file.i16(10), file.i16(12)];
    inch = file.u16(14);
    o = 22;
  }
  const type = file.u16(o), headerWords = file.u16(o + 2);
  if ((type !== 1 && type !== 2) || headerWords !== 9 || o + 18 > file.b.length) return undefined;
  const frame: Box | undefined = bbox && bbox[2] !== bbox[0] && bbox[3] !== bbox[1] ? [bbox[0], bbox[1], bbox[2] - bbox[0], bbox[3] - bbox[1]] : undefined;
  return { frame, inch, records: o + 18 };
}

/** Without a placeable box, the output frame is the first window (origin and extent) the records set. */
function firstWindow(file: WmfBytes, start: number): Box | undefined {
  let org: [number, number] = [0, 0], ext: [number, number] | undefined;
  for (let p = start, n = 0; p + 6 <= file.b.length && n < MAX_RECORDS; n++) {
    const words = file.u32(p), fn = file.u16(p + 4);
    if (words < 3 || p + words * 2 > file.b.length || fn === 0) break;
    if (fn === 0x020b) org = [file.i16(p + 8), file.i16(p + 6)];
    if (fn === 0x020c) ext = [file.i16(p + 8), file.i16(p + 6)];
    if (ext && ext[0] && ext[1]) break;
    p += words * 2;
  }
  if (!ext || !ext[0] || !ext[1]) return undefined;
  return [org[0], org[1], ext[0], ext[1]];
}

/** Plays the records from `o` to the end (or the first malformed one). */
function playRecords(file: WmfBytes, o: number, g: Gdi): void {
  const objects: (GdiObject | undefined)[] = [];
  const play: WmfPlayback = {
    g,
    objects,
    create(obj) {
      let i = objects.findIndex((x) => !x);
      if (i < 0) i = objects.length;
      if (i < 65536) objects[i] = obj;
    },
  };
  const { b } = file;
  try {
    for (let n = 0; n < MAX_RECORDS && o + 6 <= b.length; n++) {
      const words = file.u32(o), fn = file.u16(o + 4);
      if (words < 3 || o + words * 2 > b.length || fn === 0) break;
      const rec = new WmfRecord(fn, file, o + 6, words * 2 - 6);
      o += words * 2;
      WMF_RECORDS.get(fn)?.(rec, play);
    }
  } catch {
    // A malformed record ends the drawing; what was drawn so far stays.
  }
}
