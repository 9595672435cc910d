/**
 * OfficeArt custom geometry (a .doc shape of type 0, msosptNotPrimitive): its outline as vertices
 * (pVertices) and the segments that join them (pSegmentInfo), in the space geoLeft..geoRight ×
 * geoTop..geoBottom, stretched over the shape's box. Logos and drawn lettering are made of these
 * (a sponsor's wordmark: two dozen of them in a group).
 */
import type { FreeformPath, PathOp, PathPart } from './model';
import { u16, u32 } from '../../codecs/binary';

const GEO_LEFT = 0x0140;
const GEO_TOP = 0x0141;
const GEO_RIGHT = 0x0142;
const GEO_BOTTOM = 0x0143;
/** Complex properties this reads (their data is kept by readOpt). */
export const VERTICES = 0x0145;
export const SEGMENTS = 0x0146;
/** The coordinate space's default extent (OfficeArt's 21600 units). */
const DEFAULT_EXTENT = 21600;
/** Vertices read at most: a damaged count would otherwise loop for long. */
const MOST_VERTICES = 100_000;

/** An IMsoArray's elements: count, then (after the allocated count) the element size; 0xFFF0 means 4. */
function arrayOf(data: Uint8Array | undefined): { count: number; size: number; at: (i: number) => number } | undefined {
  if (!data || data.length < 6) return undefined;
  const cbElem = u16(data, 4);
  const size = cbElem === 0xfff0 ? 4 : cbElem;
  if (!size) return undefined;
  const count = Math.min(u16(data, 0), Math.floor((data.length - 6) / size), MOST_VERTICES);
  return { count, size, at: (i) => 6 + i * size };
}

/** The box the vertices span: left, top, width, height. */
function vertexBounds(count: number, point: (i: number) => [number, number]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    const [x, y] = point(i);
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  return count ? [x0, y0, x1 - x0, y1 - y0] : [0, 0, 0, 0];
}

/** The outline of a custom-geometry shape, or undefined when it has none that reads. */
export function customGeometry(props: Map<number, number>, complex: Map<number, Uint8Array>): FreeformPath | undefined {
  const vertices = arrayOf(complex.get(VERTICES));
  if (!vertices || vertices.count < 2) return undefined;
  const data = complex.get(VERTICES)!;
  const raw = (i: number): [number, number] => {
    const o = vertices.at(i);
    // 4-byte elements are two 16-bit coordinates, 8-byte ones two 32-bit ones.
    return vertices.size === 8 ? [u32(data, o) | 0, u32(data, o + 4) | 0] : [u16(data, o) << 16 >> 16, u16(data, o + 2) << 16 >> 16];
  };
  let left = (props.get(GEO_LEFT) ?? 0) | 0;
  let top = (props.get(GEO_TOP) ?? 0) | 0;
  let width = ((props.get(GEO_RIGHT) ?? DEFAULT_EXTENT) | 0) - left;
  let height = ((props.get(GEO_BOTTOM) ?? DEFAULT_EXTENT) | 0) - top;
  // A space of no extent (LibreOffice's XLS export writes 0 for geoRight and geoBottom): the vertices' own bounds.
  if (width <= 0 || height <= 0) [left, top, width, height] = vertexBounds(vertices.count, raw);
  if (width <= 0 || height <= 0) return undefined;
  const point = (i: number): [number, number] => {
    const [x, y] = raw(i);
    return [x - left, y - top];
  };
  const parts: PathPart[] = [];
  let ops: PathOp[] = [];
  let fill = true;
  let stroke = true;
  const endPart = () => {
    if (ops.some((op) => op[0] !== 'M')) parts.push({ ops, fill, stroke });
    ops = [];
    fill = true;
    stroke = true;
  };
  let v = 0;
  const segments = arrayOf(complex.get(SEGMENTS));
  if (!segments) {
    // No segments: one line through all the vertices.
    ops.push(['M', ...point(0)]);
    for (v = 1; v < vertices.count; v++) ops.push(['L', ...point(v)]);
    endPart();
    return parts.length ? { width, height, parts } : undefined;
  }
  const segData = complex.get(SEGMENTS)!;
  for (let s = 0; s < segments.count && v <= vertices.count; s++) {
    const info = u16(segData, segments.at(s));
    const type = info >> 13;
    const count = info & 0x1fff;
    switch (type) {
      case 0: // lineTo; a path that starts with one starts at its first vertex
        for (let k = 0; k < Math.max(1, count) && v < vertices.count; k++) ops.push([ops.length ? 'L' : 'M', ...point(v++)]);
        break;
      case 1: // curveTo: three vertices each
        for (let k = 0; k < Math.max(1, count) && v + 2 < vertices.count; k++, v += 3) ops.push(['C', ...point(v), ...point(v + 1), ...point(v + 2)]);
        break;
      case 2: // moveTo
        if (v < vertices.count) ops.push(['M', ...point(v++)]);
        break;
      case 3: // close
        ops.push(['Z']);
        break;
      case 4: // end
        endPart();
        break;
      case 5: // escape: its code in bits 8-12, the vertices it takes in bits 0-7
      case 6: {
        const code = (info >> 8) & 0x1f;
        if (code === 0xa) fill = false; // noFill
        else if (code === 0xb) stroke = false; // noLine
        v += info & 0xff;
        break;
      }
    }
  }
  endPart();
  return parts.length ? { width, height, parts } : undefined;
}
