/**
 * Bytes ↔ string one byte per character (ISO-8859-1), exact for every byte: what PDF syntax and
 * CMaps are written in. TextDecoder('latin1') is windows-1252 and maps 0x80–0x9f elsewhere.
 */
export function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

export function latin1String(bytes: Uint8Array): string {
  let s = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}
