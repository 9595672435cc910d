/**
 * A placeholder's list level (a:lvlNpPr) as PowerPoint resolves it: each attribute and each part
 * from the nearest level that gives it (the slide's, its layout's, its master's placeholder, the
 * master's text style), not the nearest level whole: a layout that only makes its title 24 pt
 * keeps the master's colour and capitals. The run defaults (a:defRPr) merge the same way one level
 * down. Parts that exclude each other (one fill, one bullet kind) come whole from the nearest that
 * gives one of them.
 */
import { elements, type XmlElement } from '../../../codecs/xml';

const EXCLUSIVE = [
  ['noFill', 'solidFill', 'gradFill', 'blipFill', 'pattFill', 'grpFill'],
  ['buNone', 'buChar', 'buAutoNum', 'buBlip'],
  ['buFontTx', 'buFont'],
  ['buClrTx', 'buClr'],
  ['buSzTx', 'buSzPct', 'buSzPts'],
];
const groupOf = (name: string) => EXCLUSIVE.findIndex((g) => g.includes(name));

/** `near` over `far`: attributes and parts of `near` win; `merge` names the parts merged again one level down. */
function over(near: XmlElement, far: XmlElement, merge: Set<string>): XmlElement {
  const nearParts = elements(near);
  const taken = new Set(nearParts.map((c) => c.name));
  const takenGroups = new Set(nearParts.map((c) => groupOf(c.name)).filter((g) => g >= 0));
  const parts = nearParts.map((c) => {
    const farPart = merge.has(c.name) ? elements(far).find((f) => f.name === c.name) : undefined;
    return farPart ? over(c, farPart, new Set()) : c;
  });
  for (const f of elements(far)) {
    const group = groupOf(f.name);
    if (!taken.has(f.name) && !(group >= 0 && takenGroups.has(group))) parts.push(f);
  }
  return { ...near, attrs: { ...far.attrs, ...near.attrs }, children: parts };
}

/** The level from `levels`, nearest first (absent ones skipped). */
export function mergedLevel(levels: (XmlElement | undefined)[]): XmlElement | undefined {
  const given = levels.filter((l): l is XmlElement => !!l);
  if (given.length < 2) return given[0];
  return given.reduceRight((far, near) => over(near, far, new Set(['defRPr'])));
}
