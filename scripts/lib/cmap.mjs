// The code points a TrueType/OpenType face draws: those its Unicode character map (the subtable
// FreeType selects: (3,10), then (0,4+), then (3,1), then (0,*)) maps to a glyph other than 0, the
// same test as the layout's FontBook.covers (encodeCharacter > 0). Formats 4 and 12, which every
// face the service carries uses.

/** The best Unicode subtable's offset in the face, or -1. */
function unicodeSubtable(view, bytes) {
  const tables = view.getUint16(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const record = 12 + 16 * i;
    if (String.fromCharCode(...bytes.subarray(record, record + 4)) === 'cmap') cmap = view.getUint32(record + 8);
  }
  if (cmap < 0) return -1;
  const rank = (platform, encoding) => (platform === 3 && encoding === 10 ? 0 : platform === 0 && encoding >= 4 ? 1 : platform === 3 && encoding === 1 ? 2 : platform === 0 ? 3 : 9);
  let best = -1;
  let bestRank = 9;
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const record = cmap + 4 + 8 * i;
    const offset = cmap + view.getUint32(record + 4);
    const r = rank(view.getUint16(record), view.getUint16(record + 2));
    if (r < bestRank && [4, 12].includes(view.getUint16(offset))) [best, bestRank] = [offset, r];
  }
  return best;
}

/** Segments of format 12: sequential groups of code points to glyphs. */
function format12(view, at, add) {
  for (let g = 0; g < view.getUint32(at + 12); g++) {
    const group = at + 16 + 12 * g;
    const [start, end, glyph] = [view.getUint32(group), view.getUint32(group + 4), view.getUint32(group + 8)];
    for (let c = start; c <= end; c++) if (glyph + (c - start) > 0) add(c);
  }
}

/** Format 4: the BMP in segments, each by a delta or through the glyph id array. */
function format4(view, at, add) {
  const segX2 = view.getUint16(at + 6);
  const [ends, starts] = [at + 14, at + 16 + segX2];
  const [deltas, ranges] = [starts + segX2, starts + 2 * segX2];
  for (let i = 0; i < segX2 / 2; i++) {
    const [end, start, delta, rangeOffset] = [view.getUint16(ends + 2 * i), view.getUint16(starts + 2 * i), view.getInt16(deltas + 2 * i), view.getUint16(ranges + 2 * i)];
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let glyph = (c + delta) & 0xffff;
      if (rangeOffset) {
        glyph = view.getUint16(ranges + 2 * i + rangeOffset + 2 * (c - start));
        if (glyph) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph > 0) add(c);
    }
  }
}

/** The code points the face draws, ascending. */
export function codePointsOf(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = unicodeSubtable(view, bytes);
  const points = new Set();
  if (at >= 0) (view.getUint16(at) === 12 ? format12 : format4)(view, at, (c) => points.add(c));
  return [...points].sort((a, b) => a - b);
}

/** Ascending code points as [first, last] runs: a face's coverage in a few hundred numbers. */
export function asRanges(points) {
  const ranges = [];
  for (const c of points) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === c - 1) last[1] = c;
    else ranges.push([c, c]);
  }
  return ranges;
}
