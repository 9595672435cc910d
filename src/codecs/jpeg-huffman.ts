/**
 * Huffman tables for the JPEG encoder (engines/jpeg-encoder.ts): the standard ones of ITU T.81
 * Annex K.3, which a band-at-a-time encoder must use (it writes its tables before it has seen the
 * picture), and tables fitted to a picture's own symbol counts (Annex K.2, as libjpeg's
 * optimize_coding makes them) for a picture encoded whole.
 */

/** A table as a DHT segment holds it: code counts by length (1-16), then the symbols by code. */
export type Table = { counts: number[]; symbols: number[] };

/** Huffman tables of Annex K.3: code counts by length (1-16), then the symbols. */
export const DC_LUMA = { counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
export const DC_CHROMA = { counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
export const AC_LUMA = { counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d], symbols: hex('01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa') };
export const AC_CHROMA = { counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77], symbols: hex('000102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9fa') };

function hex(s: string): number[] {
  return Array.from({ length: s.length / 2 }, (_, i) => parseInt(s.slice(2 * i, 2 * i + 2), 16));
}

/** Each symbol's code and its length in one number: code << 5 | length. */
export function codesOf(table: Table): Int32Array {
  const codes = new Int32Array(256);
  let [code, k] = [0, 0];
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < table.counts[len - 1]!; i++) codes[table.symbols[k++]!] = (code++ << 5) | len;
    code <<= 1;
  }
  return codes;
}

/**
 * The table that codes symbols with `frequencies` (256 counts) in the fewest bits, no code longer
 * than 16 bits and none all 1-bits (Annex K.2: Huffman's construction, then K.3's length limiting).
 */
export function fittedTable(frequencies: ArrayLike<number>): Table {
  const freq = Float64Array.from({ length: 257 }, (_, i) => (i < 256 ? frequencies[i]! : 1)); // 256: a reserved code
  const codeSize = new Int32Array(257);
  const others = new Int32Array(257).fill(-1);
  for (;;) {
    // The two least frequent trees (ties: the higher symbol first, as libjpeg takes them).
    let [c1, c2] = [-1, -1];
    for (let i = 0; i < 257; i++) if (freq[i]! > 0 && (c1 < 0 || freq[i]! <= freq[c1]!)) c1 = i;
    for (let i = 0; i < 257; i++) if (freq[i]! > 0 && i !== c1 && (c2 < 0 || freq[i]! <= freq[c2]!)) c2 = i;
    if (c2 < 0) break;
    freq[c1]! += freq[c2]!;
    freq[c2] = 0;
    codeSize[c1]!++;
    while (others[c1]! >= 0) codeSize[(c1 = others[c1]!)]!++;
    others[c1] = c2;
    codeSize[c2]!++;
    while (others[c2]! >= 0) codeSize[(c2 = others[c2]!)]!++;
  }
  const bits = new Int32Array(33);
  for (let i = 0; i < 257; i++) if (codeSize[i]) bits[codeSize[i]!]!++;
  // Codes over 16 bits: two of the longest become one a bit shorter and one moved down a level.
  for (let i = 32; i > 16; i--) {
    while (bits[i]! > 0) {
      let j = i - 2;
      while (bits[j] === 0) j--;
      bits[i]! -= 2;
      bits[i - 1]!++;
      bits[j + 1]! += 2;
      bits[j]!--;
    }
  }
  let longest = 16;
  while (bits[longest] === 0) longest--;
  bits[longest]!--; // the reserved code's place
  const symbols: number[] = [];
  for (let len = 1; len <= 32; len++) for (let i = 0; i < 256; i++) if (codeSize[i] === len) symbols.push(i);
  return { counts: Array.from(bits.subarray(1, 17)), symbols };
}
