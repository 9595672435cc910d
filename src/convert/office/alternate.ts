/** Markup compatibility (mc:AlternateContent), shared by the story and run readers. */
import { elements, type XmlElement } from '../../codecs/xml';

/**
 * mc:AlternateContent: take the first mc:Choice whose Requires we understand (DrawingML shapes and
 * groups, Word 2010+ extensions that only add attributes), else mc:Fallback.
 */
const UNDERSTOOD = new Set(['wps', 'wpg', 'wp14', 'w14', 'w15', 'w16', 'a14', 'v', 'o', 'w10', 'pic', 'm', 'wpi', 'p14', 'p15', 'a16']);
export function chooseAlternate(ac: XmlElement): XmlElement | undefined {
  for (const c of elements(ac)) {
    if (c.name === 'Choice') {
      const req = (c.attrs['Requires'] ?? '').split(/\s+/).filter(Boolean);
      if (req.every((r) => UNDERSTOOD.has(r))) return c;
    } else if (c.name === 'Fallback') return c;
  }
  return undefined;
}
