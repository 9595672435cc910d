/**
 * The fonts a deck embeds, as references to its parts (read later, and only those its text uses:
 * fonts/document-faces/load.ts).
 *
 * PPTX: p:presentation/p:embeddedFontLst, each p:embeddedFont naming its family (p:font typeface)
 * and its styles' parts (p:regular, p:bold, p:italic, p:boldItalic r:id → ppt/fonts/font1.fntdata):
 * EOT from PowerPoint, bare TrueType from Google Slides and Keynote, an obfuscated .odttf from
 * tools that write Word's kind.
 *
 * ODP: style:font-face elements (office:font-face-decls of styles.xml and content.xml) whose
 * svg:font-face-src lists svg:font-face-uri links into the package (Fonts/Font_Caveat_1.ttf), as
 * LibreOffice writes them when the document's settings say EmbedFonts; LibreOffice marks each
 * link's style (loext:font-style, loext:font-weight), else the face's own style is taken.
 */
import { attr, child, children, type XmlElement } from '../../../codecs/xml';
import type { FaceStyle } from '../../../fonts/catalog';
import { faceStyle } from '../../../fonts/catalog';
import type { FontPartRef } from '../../../fonts/document-faces/load';
import type { Package } from '../../office/package';
import { packagePath, type PartReader } from '../../office/odf/package';
import type { ProblemSink } from '../../problems';

/** Font entries (families, or ODF font faces) looked at at most: a deck embeds a handful. */
const FONT_ENTRIES_MAX = 256;
const PPTX_STYLES: [string, FaceStyle][] = [['regular', 'regular'], ['bold', 'bold'], ['italic', 'italic'], ['boldItalic', 'boldItalic']];

/** The parts a PPTX's presentation part lists as its embedded fonts. */
export function pptxFontRefs(pkg: Package, main: string, presentation: XmlElement): FontPartRef[] {
  const list = child(presentation, 'embeddedFontLst');
  if (!list) return [];
  const rels = pkg.rels(main);
  const refs: FontPartRef[] = [];
  for (const font of children(list, 'embeddedFont').slice(0, FONT_ENTRIES_MAX)) {
    const family = attr(child(font, 'font'), 'typeface')?.trim();
    if (!family) continue;
    for (const [element, style] of PPTX_STYLES) {
      const rel = rels.get(attr(child(font, element), 'r:id') ?? '');
      if (!rel || rel.external) continue;
      const part = rel.target;
      // Word's obfuscated fonts are keyed by the GUID of their part's name ({GUID}.odttf).
      const obfuscationKey = /\.odttf$/i.test(part) ? part : undefined;
      refs.push({ family, style, part, size: pkg.sizeOf(part), ...(obfuscationKey ? { obfuscationKey } : {}), read: () => pkg.read(part) });
    }
  }
  return refs;
}

/** The style a font-face link is marked with (LibreOffice's loext:font-style and -weight); undefined when unmarked. */
function linkStyle(uri: XmlElement): FaceStyle | undefined {
  const style = attr(uri, 'font-style');
  const weight = attr(uri, 'font-weight');
  if (style === undefined && weight === undefined) return undefined;
  const bold = weight === 'bold' || Number(weight) >= 600;
  return faceStyle(bold, style === 'italic' || style === 'oblique');
}

/** The family a style:font-face declares (its svg:font-family's first name, unquoted). */
const declaredFamily = (face: XmlElement) => attr(face, 'font-family')?.split(',')[0]?.trim().replace(/^['"]|['"]$/g, '');

/** The font files an ODP's font-face declarations link to inside its package. */
export function odpFontRefs(roots: (XmlElement | undefined)[], read: PartReader, sizeOf: (path: string) => number, problems: ProblemSink): FontPartRef[] {
  const readLinked = (part: string) => {
    const bytes = read(part);
    if (!bytes && !sizeOf(part)) problems({ part, reason: 'missing from the package (a font face links to it)' });
    return bytes;
  };
  const refs: FontPartRef[] = [];
  for (const root of roots) {
    for (const face of children(child(root, 'font-face-decls'), 'font-face').slice(0, FONT_ENTRIES_MAX)) {
      const family = declaredFamily(face);
      if (!family) continue;
      for (const uri of children(child(face, 'font-face-src'), 'font-face-uri').slice(0, 8)) {
        const part = packagePath(attr(uri, 'href'));
        if (!part) continue;
        const style = linkStyle(uri);
        refs.push({ family, ...(style ? { style } : {}), part, size: sizeOf(part), read: () => readLinked(part) });
      }
    }
  }
  return refs;
}
