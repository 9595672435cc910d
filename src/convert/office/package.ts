/**
 * The OOXML package: the zip container, its parts and their relationships.
 *
 * Parts are decompressed on demand (zip-directory.ts) so a document with megabytes of images that
 * are never referenced does not hold them all in memory, and an encrypted document (which is an OLE
 * compound file, not a zip) is recognised before anything tries to unzip it.
 */
import { readZipDirectory, readZipEntry, readZipEntryPieces, ZipError, type ZipEntry } from '../../codecs/zip-directory';
import * as CFB from 'cfb';
import { ConversionError } from '../errors';
import { parseXml, children, type XmlElement, type XmlStream } from '../../codecs/xml';
import { hasUtf16 } from '../../lib/detect';
import { ignoreProblems, type ProblemSink } from '../problems';
import { LimitExceeded } from '../../lib/limits';

export interface Relationship {
  type: string;
  target: string;
  external: boolean;
}

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0];

/** Reject what is not a zip before unzipping: encrypted OOXML, compound files, other bytes. */
export function checkContainer(bytes: Uint8Array, format = 'DOCX'): void {
  if (OLE_SIGNATURE.every((b, i) => bytes[i] === b)) {
    // Password-protected OOXML is an OLE compound file holding EncryptionInfo + EncryptedPackage.
    let names: string[] = [];
    try {
      names = CFB.read(bytes, { type: 'array' }).FullPaths;
    } catch {
      // A damaged compound file: fall back to looking for the stream name in the directory bytes.
      if (hasUtf16(bytes, 'EncryptedPackage')) names = ['EncryptedPackage'];
    }
    if (names.some((n) => /(^|\/)EncryptedPackage$/.test(n))) {
      throw new ConversionError('password', 'The document is password-protected.');
    }
    throw new ConversionError('not_word', `The file is an OLE compound file (${format === 'DOCX' ? 'a .doc?' : 'an .xls?'}), not a ${format} package.`);
  }
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new ConversionError('corrupt', `The file is not a zip package (${format}).`);
  }
}

export class Package {
  private readonly entries: Map<string, ZipEntry>;
  private readonly relsCache = new Map<string, Map<string, Relationship>>();
  private readonly mediaCache = new Map<string, Uint8Array | undefined>();

  constructor(
    private readonly bytes: Uint8Array,
    /** Told of every part that is referenced but cannot be read (see ../problems.ts). */
    readonly problems: ProblemSink = ignoreProblems,
    /** The format named in its errors ("DOCX", "XLSX", "PPTX"). */
    readonly format = 'DOCX',
  ) {
    // Reading the whole directory (and decompressing nothing) validates it up front, so a truncated
    // archive fails here as 'corrupt' instead of half-way through the document.
    try {
      this.entries = readZipDirectory(bytes);
    } catch (e) {
      // A package past the zip reader's limits (a bomb) is refused with the limit, not called damaged.
      if (e instanceof LimitExceeded) throw e;
      throw new ConversionError('corrupt', `The ${format} archive is damaged (${(e as Error).message}).`);
    }
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /**
   * A part's bytes, or undefined when it is missing or its data does not inflate. Both are told to
   * the problem sink: a part is only asked for when something in the document refers to it.
   */
  read(path: string): Uint8Array | undefined {
    const entry = this.entry(path);
    if (!entry) {
      this.problems({ part: path, reason: 'missing from the package (a relationship names it)' });
      return undefined;
    }
    try {
      return readZipEntry(this.bytes, entry);
    } catch (e) {
      if (e instanceof LimitExceeded) throw e;
      this.problems({ part: path, reason: `its zip data is damaged (${(e as Error).message})` });
      return undefined;
    }
  }

  /** A part's bytes in pieces as they inflate (a big sheet's XML never held whole); false when it is missing or damaged, told as read() tells it. */
  readPieces(path: string, onPiece: (piece: Uint8Array) => void): boolean {
    const entry = this.entry(path);
    if (!entry) {
      this.problems({ part: path, reason: 'missing from the package (a relationship names it)' });
      return false;
    }
    try {
      readZipEntryPieces(this.bytes, entry, onPiece);
      return true;
    } catch (e) {
      if (!(e instanceof ZipError)) throw e;
      this.problems({ part: path, reason: `its zip data is damaged (${e.message})` });
      return false;
    }
  }

  /** The unpacked size a part declares (0 when it is missing). */
  sizeOf(path: string): number {
    return this.entry(path)?.size ?? 0;
  }

  /**
   * A picture's bytes, unpacked once however often the document shows it: a picture shown 10,000
   * times was unpacked (and held) 10,000 times.
   */
  media(path: string): Uint8Array | undefined {
    if (this.mediaCache.has(path)) return this.mediaCache.get(path);
    const data = this.read(path);
    this.mediaCache.set(path, data);
    return data;
  }

  /** The main document part: without it there is no document, so damage here is the file's damage. */
  readMain(path: string): Uint8Array {
    const entry = this.entry(path);
    if (!entry) throw new ConversionError('corrupt', `The ${this.format} package has no ${path}.`);
    try {
      return readZipEntry(this.bytes, entry);
    } catch (e) {
      if (e instanceof LimitExceeded) throw e;
      throw new ConversionError('corrupt', `${path} is damaged in the archive (${(e as Error).message}).`);
    }
  }

  /** A part's XML, or undefined when it is missing, damaged or not XML (told to the problem sink). */
  /**
   * A part's XML tree; `budget` refuses (LimitExceeded) a part larger than its bytes, by the size the
   * package declares before anything is inflated, or of more elements than it allows.
   */
  xml(path: string, stream?: XmlStream, budget?: { bytes: number; elements: number }): XmlElement | undefined {
    const declared = budget ? this.entry(path)?.size : undefined;
    if (budget && declared !== undefined && declared > budget.bytes) {
      throw inPart(path, new LimitExceeded('part_size', `The file's part ${path} is ${(declared / 1_048_576).toFixed(1)} MB of XML; at most ${budget.bytes / 1_048_576} MB is read from one part`));
    }
    const data = this.read(path);
    if (!data) return undefined;
    try {
      return parseXml(data, stream, budget?.elements);
    } catch (e) {
      // A part past the XML reader's limits is not damaged: the document is refused with the limit.
      if (e instanceof LimitExceeded) throw inPart(path, e);
      this.problems({ part: path, reason: `not readable XML (${(e as Error).message})` });
      return undefined;
    }
  }

  private entry(path: string): ZipEntry | undefined {
    const entry = this.entries.get(path);
    if (entry) return entry;
    // Zip names are case-sensitive but some writers disagree with their own relationship targets.
    const lower = path.toLowerCase();
    const found = [...this.entries.keys()].find((n) => n.toLowerCase() === lower);
    return found === undefined ? undefined : this.entries.get(found);
  }

  /** Relationships of a part ("word/document.xml" → word/_rels/document.xml.rels), targets resolved. */
  rels(partPath: string): Map<string, Relationship> {
    let map = this.relsCache.get(partPath);
    if (map) return map;
    map = new Map();
    const slash = partPath.lastIndexOf('/');
    const dir = slash < 0 ? '' : partPath.slice(0, slash);
    const relsPath = (dir ? dir + '/' : '') + '_rels/' + partPath.slice(slash + 1) + '.rels';
    const root = this.has(relsPath) ? this.xml(relsPath) : undefined;
    for (const r of children(root, 'Relationship')) {
      const id = r.attrs['Id'];
      const target = r.attrs['Target'];
      if (!id || target === undefined) continue;
      const external = r.attrs['TargetMode'] === 'External';
      map.set(id, { type: r.attrs['Type'] ?? '', target: external ? target : resolvePath(dir, target), external });
    }
    this.relsCache.set(partPath, map);
    return map;
  }

  /** The target of the first relationship of the part whose type ends with `typeSuffix`. */
  relTarget(partPath: string, typeSuffix: string): string | undefined {
    for (const r of this.rels(partPath).values()) if (!r.external && r.type.endsWith(typeSuffix)) return r.target;
    return undefined;
  }
}

/**
 * The limit an XML part went past, told of the part (and of tables when they nest deepest): "The
 * document's word/document.xml nests tables in tables 341 deep (Word opens at most 63): XML nested
 * more than 1024 elements deep...".
 */
export function inPart(path: string, e: LimitExceeded): LimitExceeded {
  if (e.limit === 'xml_elements') return new LimitExceeded(e.limit, `The file's part ${path} ${e.message}`);
  if (e.limit !== 'xml_depth') return e;
  const tables = /<w:tbl> (\d+) times/.exec(e.message);
  const what = tables ? `nests tables in tables ${tables[1]} deep (Word opens at most 63)` : 'nests its XML too deep to read';
  return new LimitExceeded(e.limit, `The document's ${path} ${what}: ${e.message}.`);
}

/** Resolve a relationship target against the source part's folder ("media/a.png", "../x", "/word/y"). */
export function resolvePath(dir: string, target: string): string {
  const parts = target.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  dib: 'image/bmp',
  emf: 'image/emf',
  wmf: 'image/wmf',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
};

/** The image content type: from the bytes' signature when recognisable (extensions lie), else the name. */
export function imageContentType(path: string, data: Uint8Array): string {
  const b = data;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8) return 'image/jpeg';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return 'image/gif';
  if (b[0] === 0x42 && b[1] === 0x4d) return 'image/bmp';
  if ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a) || (b[0] === 0x4d && b[1] === 0x4d && b[3] === 0x2a)) return 'image/tiff';
  if (b[0] === 0xd7 && b[1] === 0xcd && b[2] === 0xc6 && b[3] === 0x9a) return 'image/wmf';
  if (b[0] === 0x01 && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[40] === 0x20 && b[41] === 0x45 && b[42] === 0x4d && b[43] === 0x46) return 'image/emf';
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return IMAGE_TYPES[ext] ?? 'application/octet-stream';
}
