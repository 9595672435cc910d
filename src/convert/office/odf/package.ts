/**
 * An OpenDocument package (a ZIP whose first entry, "mimetype", names the kind of document) opened
 * for a reader: its content.xml (required), styles.xml, and a reader of any other entry (Pictures/,
 * embedded objects), each entry unpacked through the ZIP codec's limits. A package of another kind
 * is refused as such, an encrypted one (its manifest's manifest:encryption-data) as password-protected,
 * and a package that does not open as damaged.
 */
import { descendant, parseXml, type XmlElement } from '../../../codecs/xml';
import { readZipDirectory, readZipEntry, type ZipEntry } from '../../../codecs/zip-directory';
import { LimitExceeded } from '../../../lib/limits';
import { ConversionError } from '../../errors';
import type { ProblemSink } from '../../problems';

/** A package entry's bytes by its path inside the package. */
export type PartReader = (path: string) => Uint8Array | undefined;

/** What a reader opens: the document kinds it reads (mimetype values), the noun its messages use, and what to do about a password. */
export interface OdfKind {
  types: string[];
  /** "spreadsheet", "presentation". */
  noun: string;
  passwordHelp: string;
}

export interface OdfPackage {
  content: Uint8Array;
  styles?: Uint8Array;
  read: PartReader;
  /** A part's unpacked size as the archive declares it (0 when it is missing): what a reader checks before it reads a large part. */
  sizeOf: (path: string) => number;
}

export const damagedOdf = (noun: string, what: string, e: unknown) => new ConversionError('corrupt', `The ${noun} is damaged: ${what} (${(e as Error).message}).`, { cause: e });

/** The package's mimetype entry, trimmed; undefined when it has none (it then says nothing). */
export function odfMimetype(read: PartReader): string | undefined {
  const mimetype = read('mimetype');
  return mimetype ? new TextDecoder().decode(mimetype.subarray(0, 200)).trim() : undefined;
}

/** The package's parts that matter: content.xml (required), styles.xml, and whether the manifest says they are encrypted. */
export function openOdfPackage(bytes: Uint8Array, problems: ProblemSink, kind: OdfKind): OdfPackage {
  let entries: Map<string, ZipEntry>;
  try {
    entries = readZipDirectory(bytes);
  } catch (e) {
    if (e instanceof LimitExceeded) throw e;
    throw damagedOdf(kind.noun, 'its zip directory is unreadable', e);
  }
  const read = (name: string) => {
    const entry = entries.get(name);
    try {
      return entry ? readZipEntry(bytes, entry) : undefined;
    } catch (e) {
      if (e instanceof LimitExceeded) throw e;
      if (name === 'content.xml') throw damagedOdf(kind.noun, 'content.xml does not unpack', e);
      problems({ part: name, reason: `not readable (${(e as Error).message})` });
      return undefined;
    }
  };
  const type = odfMimetype(read);
  if (type && !kind.types.includes(type)) throw new ConversionError('not_word', `The file is an OpenDocument file of another kind (${type}), not a ${kind.noun}.`);
  const manifest = read('META-INF/manifest.xml');
  if (manifest && manifestEncrypted(manifest)) throw new ConversionError('password', `The ${kind.noun} is password-protected: ${kind.passwordHelp}`);
  const content = read('content.xml');
  if (!content) throw new ConversionError('corrupt', `The ${kind.noun} is damaged: its package has no content.xml.`);
  return { content, styles: read('styles.xml'), read, sizeOf: (name) => entries.get(name)?.size ?? 0 };
}

function manifestEncrypted(manifest: Uint8Array): boolean {
  try {
    return !!descendant(parseXml(manifest), 'encryption-data');
  } catch (e) {
    if (e instanceof LimitExceeded) throw e;
    return false; // an unreadable manifest says nothing; content.xml will tell
  }
}

/** A part parsed, or undefined (told to `problems`) when it is not XML. */
export function parseOdfPart(data: Uint8Array, part: string, problems: ProblemSink): XmlElement | undefined {
  try {
    return parseXml(data);
  } catch (e) {
    if (e instanceof LimitExceeded) throw e;
    problems({ part, reason: `not readable XML (${(e as Error).message})` });
    return undefined;
  }
}

/** "./Object 1", "Pictures/1.png" → the package path; undefined for external links. */
export function packagePath(href: string | undefined): string | undefined {
  if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return undefined;
  return href.replace(/^\.\//, '').replace(/\/$/, '');
}
