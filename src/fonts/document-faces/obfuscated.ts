/**
 * Obfuscated fonts of Office Open XML (ECMA-376 Part 1, 17.8.1: .odttf parts, content type
 * application/vnd.openxmlformats-officedocument.obfuscatedFont): the font's first 32 bytes XOR-ed
 * with a key made of a GUID, which Word writes as the w:fontKey attribute and as the part's file
 * name ({GUID}.odttf). The key is the GUID's 16 bytes read from its last hex pair to its first.
 */

const GUID = /\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?/i;
/** The obfuscated head of the font. */
const OBFUSCATED_BYTES = 32;

/** The GUID a key or part name holds ("{4C0B…}" or "fonts/4C0B….odttf"), as its 32 hex digits; undefined when it holds none. */
export function guidIn(text: string): string | undefined {
  const m = GUID.exec(text);
  return m ? m.slice(1).join('').toLowerCase() : undefined;
}

/** The font with its first 32 bytes XOR-ed back (a copy); undefined when the key holds no GUID or the font is shorter than that. */
export function deobfuscatedFont(bytes: Uint8Array, keyText: string): Uint8Array | undefined {
  const hex = guidIn(keyText);
  if (!hex || bytes.length < OBFUSCATED_BYTES) return undefined;
  const key = Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(30 - 2 * i, 32 - 2 * i), 16));
  const font = new Uint8Array(bytes); // a copy, whatever the input's kind
  for (let i = 0; i < OBFUSCATED_BYTES; i++) font[i] = font[i]! ^ key[i % 16]!;
  return font;
}
