/**
 * DrawingML pictures (a:blip in pic:pic, p:pic, xdr:pic, a blip fill): the media bytes a relationship
 * of a part names, with their media type, and the part of the picture a:srcRect shows.
 */
import type { Picture, PictureCrop } from '../model';
import { shownCrop } from '../model';
import { imageContentType, type Package } from '../package';
import type { XmlElement } from '../../../codecs/xml';

/** The picture `relId` (r:embed, r:id) of `part` names, when it is in the package and not empty. */
export function partPicture(pkg: Package, part: string, relId: string | undefined): Picture | undefined {
  if (!relId) return undefined;
  const rel = pkg.rels(part).get(relId);
  if (!rel || rel.external) return undefined;
  const data = pkg.media(rel.target);
  if (!data || data.length === 0) return undefined;
  return { data, contentType: imageContentType(rel.target, data) };
}

/**
 * The part of a picture a:srcRect shows: l, t, r, b cut off in thousandths of a percent of the
 * picture. Negative values (the picture shrunk inside its box) are not kept: it fills its box.
 */
export function srcRectCrop(srcRect: XmlElement | undefined): PictureCrop | undefined {
  if (!srcRect) return undefined;
  const side = (name: string) => Math.min(Math.max(Number(srcRect.attrs[name] ?? 0) / 100_000 || 0, 0), 0.99);
  return shownCrop({ left: side('l'), top: side('t'), right: side('r'), bottom: side('b') });
}
