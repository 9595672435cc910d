/**
 * The standard security handler's AES-256 (revision 6, ISO 32000-2, 7.6.4.4) done with the
 * runtime's WebCrypto: the password hash (algorithm 2.B), the /U /UE /O /OE /Perms entries, and
 * the encryption of strings and streams (AES-256-CBC, a random IV before the data, PKCS#7 padding).
 * Written here and not asked of MuPDF, whose option string cannot carry a comma in a password.
 */

const subtle = () => crypto.subtle;
const utf8 = new TextEncoder();

/** A password as the handler takes it: UTF-8, at most 127 bytes (SASLprep is the identity for what people type). */
export function passwordBytes(password: string): Uint8Array {
  return utf8.encode(password.normalize('NFKC')).subarray(0, 127);
}

async function aesCbc(key: Uint8Array, iv: Uint8Array, data: Uint8Array, pad: boolean): Promise<Uint8Array> {
  const k = await subtle().importKey('raw', key, 'AES-CBC', false, ['encrypt']);
  const out = new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv }, k, data));
  // WebCrypto always pads: without padding (data a multiple of 16) the last block is padding alone.
  return pad ? out : out.subarray(0, data.length);
}

async function digest(name: 'SHA-256' | 'SHA-384' | 'SHA-512', data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest(name, data));
}

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};

/** Algorithm 2.B: the hash of a password with a salt and (for the owner) the /U string. */
export async function hash2B(password: Uint8Array, salt: Uint8Array, udata: Uint8Array = new Uint8Array(0)): Promise<Uint8Array> {
  let k = await digest('SHA-256', concat(password, salt, udata));
  for (let round = 0; ; round++) {
    const k1 = concat(password, k, udata);
    const repeated = new Uint8Array(k1.length * 64);
    for (let i = 0; i < 64; i++) repeated.set(k1, i * k1.length);
    const e = await aesCbc(k.subarray(0, 16), k.subarray(16, 32), repeated, false);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    k = await digest(sum % 3 === 0 ? 'SHA-256' : sum % 3 === 1 ? 'SHA-384' : 'SHA-512', e);
    if (round >= 63 && e[e.length - 1]! <= round - 31) return k.subarray(0, 32);
  }
}

/** Permission names of DECISIONS' `allow` and the bits of /P each grants (ISO 32000-2, table 22). */
export const PERMISSION_BITS = {
  print: (1 << 2) | (1 << 11),
  modify: 1 << 3,
  copy: (1 << 4) | (1 << 9),
  annotate: 1 << 5,
  fill_forms: 1 << 8,
  assemble: 1 << 10,
} as const;
export type Permission = keyof typeof PERMISSION_BITS;

/** /P: reserved bits 7-8 and 13-32 set, bits 1-2 clear, then what is allowed; a signed 32-bit integer. */
export function permissionsValue(allow: readonly Permission[]): number {
  let p = ~0xfff | (1 << 6) | (1 << 7);
  for (const name of allow) p |= PERMISSION_BITS[name];
  return p | 0;
}

export interface Aes256Security {
  /** The file key every string and stream is encrypted with. */
  key: Uint8Array;
  /** The /Encrypt dictionary, in PDF syntax. */
  dictionary: string;
}

const hex = (b: Uint8Array) => `<${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}>`;
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/** A new file key and the /Encrypt dictionary that opens it with either password. */
export async function aes256Security(userPassword: string, ownerPassword: string, allow: readonly Permission[]): Promise<Aes256Security> {
  const key = random(32);
  const user = passwordBytes(userPassword);
  const owner = passwordBytes(ownerPassword);
  const zeroIv = new Uint8Array(16);

  const [uValidation, uKeySalt] = [random(8), random(8)];
  const u = concat(await hash2B(user, uValidation), uValidation, uKeySalt);
  const ue = await aesCbc(await hash2B(user, uKeySalt), zeroIv, key, false);

  const [oValidation, oKeySalt] = [random(8), random(8)];
  const o = concat(await hash2B(owner, oValidation, u), oValidation, oKeySalt);
  const oe = await aesCbc(await hash2B(owner, oKeySalt, u), zeroIv, key, false);

  const p = permissionsValue(allow);
  const perms = new Uint8Array(16);
  new DataView(perms.buffer).setInt32(0, p, true);
  perms.set([0xff, 0xff, 0xff, 0xff, 0x54 /* T: metadata encrypted */, 0x61, 0x64, 0x62], 4);
  perms.set(random(4), 12);
  // ECB of one block is CBC with a zero IV.
  const permsEncrypted = await aesCbc(key, zeroIv, perms, false);

  const dictionary =
    `<</Filter/Standard/V 5/R 6/Length 256/CF<</StdCF<</AuthEvent/DocOpen/CFM/AESV3/Length 32>>>>/StmF/StdCF/StrF/StdCF` +
    `/O${hex(o)}/U${hex(u)}/OE${hex(oe)}/UE${hex(ue)}/P ${p}/Perms${hex(permsEncrypted)}/EncryptMetadata true>>`;
  return { key, dictionary };
}

/** A string's or a stream's bytes as stored: a random IV, then the AES-256-CBC ciphertext. */
export async function encryptData(key: CryptoKey, data: Uint8Array): Promise<Uint8Array> {
  const iv = random(16);
  return concat(iv, new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv }, key, data)));
}

export const importFileKey = (key: Uint8Array): Promise<CryptoKey> => subtle().importKey('raw', key, 'AES-CBC', false, ['encrypt']);
