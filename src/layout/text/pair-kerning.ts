/**
 * Pair kerning read from a face's GPOS table: the pair-adjustment lookups (type 2, also inside
 * extension lookups, type 9) of its 'kern' feature, as HarfBuzz applies them when MuPDF shapes a
 * kerned run. Only the first glyph's x advance is read (what kerning changes in horizontal text);
 * every lookup of the feature adds its adjustment, the first subtable that covers the pair in each.
 */
export class PairKerning {
  private readonly view: DataView;
  private readonly unitsPerEm: number;
  private readonly subtablesByLookup: number[][] = [];
  private readonly memo = new Map<number, number>();

  private constructor(bytes: Uint8Array, gpos: number, unitsPerEm: number, script: string) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.unitsPerEm = unitsPerEm;
    const v = this.view;
    const scriptList = gpos + v.getUint16(gpos + 4);
    const featureList = gpos + v.getUint16(gpos + 6);
    const lookupList = gpos + v.getUint16(gpos + 8);
    // The features of the script's default language system (the default script's when the face lacks it).
    let langSys = -1;
    for (const wanted of [script, 'DFLT', 'latn']) {
      for (let i = 0, n = v.getUint16(scriptList); i < n && langSys < 0; i++) {
        const at = scriptList + 2 + i * 6;
        if (tag(v, at) !== wanted) continue;
        const table = scriptList + v.getUint16(at + 4);
        const offset = v.getUint16(table);
        if (offset) langSys = table + offset;
      }
      if (langSys >= 0) break;
    }
    if (langSys < 0) return;
    const lookups = new Set<number>();
    for (let i = 0, n = v.getUint16(langSys + 4); i < n; i++) {
      const feature = v.getUint16(langSys + 6 + i * 2);
      const record = featureList + 2 + feature * 6;
      if (tag(v, record) !== 'kern') continue;
      const table = featureList + v.getUint16(record + 4);
      for (let k = 0, m = v.getUint16(table + 2); k < m; k++) lookups.add(v.getUint16(table + 4 + k * 2));
    }
    for (const index of [...lookups].sort((a, b) => a - b)) {
      const lookup = lookupList + v.getUint16(lookupList + 2 + index * 2);
      const type = v.getUint16(lookup);
      const subtables: number[] = [];
      for (let k = 0, m = v.getUint16(lookup + 4); k < m; k++) {
        let sub = lookup + v.getUint16(lookup + 6 + k * 2);
        if (type === 9) {
          if (v.getUint16(sub + 2) !== 2) continue;
          sub += v.getUint32(sub + 4);
        } else if (type !== 2) continue;
        subtables.push(sub);
      }
      if (subtables.length) this.subtablesByLookup.push(subtables);
    }
  }

  /** The face's kerning, or undefined when it has no GPOS 'kern' pairs this reads. */
  static of(bytes: Uint8Array, script = 'latn'): PairKerning | undefined {
    try {
      const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let gpos = -1;
      let head = -1;
      for (let i = 0, n = v.getUint16(4); i < n; i++) {
        const at = 12 + i * 16;
        const t = tag(v, at);
        if (t === 'GPOS') gpos = v.getUint32(at + 8);
        if (t === 'head') head = v.getUint32(at + 8);
      }
      if (gpos < 0 || head < 0) return undefined;
      const kerning = new PairKerning(bytes, gpos, v.getUint16(head + 18) || 1000, script);
      return kerning.subtablesByLookup.length ? kerning : undefined;
    } catch {
      return undefined; // a damaged table: no kerning rather than no document
    }
  }

  /** The adjustment (em) of the advance of glyph `first` before glyph `second`. */
  pair(first: number, second: number): number {
    const key = first * 0x10000 + second;
    let em = this.memo.get(key);
    if (em === undefined) {
      let units = 0;
      for (const subtables of this.subtablesByLookup) {
        for (const sub of subtables) {
          const found = this.safelyInSubtable(sub, first, second);
          if (found !== undefined) {
            units += found;
            break;
          }
        }
      }
      this.memo.set(key, (em = units / this.unitsPerEm));
    }
    return em;
  }

  /** As inSubtable; a subtable whose offsets run past the face (a document's own damaged face) covers nothing. */
  private safelyInSubtable(sub: number, first: number, second: number): number | undefined {
    try {
      return this.inSubtable(sub, first, second);
    } catch {
      return undefined;
    }
  }

  /** A PairPos subtable's x-advance adjustment of the pair, or undefined when it does not cover it. */
  private inSubtable(sub: number, first: number, second: number): number | undefined {
    const v = this.view;
    const format = v.getUint16(sub);
    const index = coverageIndex(v, sub + v.getUint16(sub + 2), first);
    if (index < 0) return undefined;
    const format1 = v.getUint16(sub + 4);
    const format2 = v.getUint16(sub + 6);
    const size1 = valueSize(format1);
    const size2 = valueSize(format2);
    const xAdvance = (record: number) => (format1 & 0x4 ? v.getInt16(record + 2 * popcount(format1 & 0x3)) : 0);
    if (format === 1) {
      if (index >= v.getUint16(sub + 8)) return undefined;
      const set = sub + v.getUint16(sub + 10 + index * 2);
      const recordSize = 2 + size1 + size2;
      let lo = 0;
      let hi = v.getUint16(set) - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const record = set + 2 + mid * recordSize;
        const glyph = v.getUint16(record);
        if (glyph === second) return xAdvance(record + 2);
        if (glyph < second) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    }
    if (format === 2) {
      const class1 = classOf(v, sub + v.getUint16(sub + 8), first);
      const class2 = classOf(v, sub + v.getUint16(sub + 10), second);
      const count1 = v.getUint16(sub + 12);
      const count2 = v.getUint16(sub + 14);
      if (class1 >= count1 || class2 >= count2) return undefined;
      return xAdvance(sub + 16 + (class1 * count2 + class2) * (size1 + size2));
    }
    return undefined;
  }
}

const tag = (v: DataView, at: number) => String.fromCharCode(v.getUint8(at), v.getUint8(at + 1), v.getUint8(at + 2), v.getUint8(at + 3));
const popcount = (n: number) => {
  let c = 0;
  for (; n; n &= n - 1) c++;
  return c;
};
/** Bytes of a ValueRecord of this format: two per field present. */
const valueSize = (format: number) => 2 * popcount(format & 0xff);

function coverageIndex(v: DataView, coverage: number, glyph: number): number {
  const format = v.getUint16(coverage);
  const count = v.getUint16(coverage + 2);
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (format === 1) {
      const g = v.getUint16(coverage + 4 + mid * 2);
      if (g === glyph) return mid;
      if (g < glyph) lo = mid + 1;
      else hi = mid - 1;
    } else {
      const range = coverage + 4 + mid * 6;
      const start = v.getUint16(range);
      const end = v.getUint16(range + 2);
      if (glyph < start) hi = mid - 1;
      else if (glyph > end) lo = mid + 1;
      else return v.getUint16(range + 4) + glyph - start;
    }
  }
  return -1;
}

function classOf(v: DataView, classDef: number, glyph: number): number {
  const format = v.getUint16(classDef);
  if (format === 1) {
    const start = v.getUint16(classDef + 2);
    const count = v.getUint16(classDef + 4);
    return glyph >= start && glyph < start + count ? v.getUint16(classDef + 6 + (glyph - start) * 2) : 0;
  }
  if (format === 2) {
    let lo = 0;
    let hi = v.getUint16(classDef + 2) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const range = classDef + 4 + mid * 6;
      if (glyph < v.getUint16(range)) hi = mid - 1;
      else if (glyph > v.getUint16(range + 2)) lo = mid + 1;
      else return v.getUint16(range + 4);
    }
  }
  return 0;
}
