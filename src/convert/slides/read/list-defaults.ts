/**
 * Text outside placeholders (text boxes, shapes, table cells) takes what its own list style leaves
 * out from the deck's defaults, as PowerPoint and LibreOffice do: the master's p:otherStyle, then
 * the presentation's p:defaultTextStyle. Without them a table cell's second-level bullet (lvl="1",
 * no marL of its own) sat at the cell's edge instead of half an inch in.
 */
import { child, elements, type XmlElement } from '../../../codecs/xml';
import { el } from './frames';
import { mergedLevel } from './level-merge';

/** Elements whose members are walked into: groups, alternate content, a table frame down to its cells. */
const WALKED = new Set(['grpSp', 'AlternateContent', 'Choice', 'Fallback', 'graphicFrame', 'graphic', 'graphicData', 'tbl', 'tr', 'tc']);
/** Nesting walked at most (hostile decks nest groups deeply; the shape reader stops at its own depth too). */
const DEPTH_MAX = 32;

/** The nine default levels: the master's otherStyle over the presentation's defaultTextStyle. */
export function listDefaults(otherStyle: XmlElement | undefined, defaultTextStyle: XmlElement | undefined): XmlElement[] {
  return [1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) => mergedLevel([child(otherStyle, `lvl${n}pPr`), child(defaultTextStyle, `lvl${n}pPr`)]) ?? []);
}

const isPlaceholder = (sp: XmlElement) => elements(sp).some((c) => c.name.startsWith('nv') && !!child(child(c, 'nvPr'), 'ph'));

/** A text body with each list level merged over the defaults. */
function withLevels(txBody: XmlElement, defaults: XmlElement[]): XmlElement {
  const own = child(txBody, 'lstStyle');
  const levels = defaults.map((d) => mergedLevel([child(own, d.name), d])!);
  const named = new Set(levels.map((l) => l.name));
  const kept = elements(own).filter((l) => !named.has(l.name));
  const lstStyle = el('lstStyle', own?.attrs ?? {}, [...kept, ...levels]);
  const rest = txBody.children.filter((c) => typeof c === 'string' || c.name !== 'lstStyle');
  const at = rest.findIndex((c) => typeof c !== 'string' && c.name === 'bodyPr');
  return { ...txBody, children: [...rest.slice(0, at + 1), lstStyle, ...rest.slice(at + 1)] };
}

/** `shape` with the text of its non-placeholder members given the default levels. */
export function withListDefaults(shape: XmlElement, defaults: XmlElement[], depth = 0): XmlElement {
  if (!defaults.length || depth > DEPTH_MAX) return shape;
  if (shape.name === 'sp' || shape.name === 'tc') {
    if (shape.name === 'sp' && isPlaceholder(shape)) return shape;
    return { ...shape, children: shape.children.map((c) => (typeof c !== 'string' && c.name === 'txBody' ? withLevels(c, defaults) : c)) };
  }
  if (!WALKED.has(shape.name)) return shape;
  return { ...shape, children: shape.children.map((c) => (typeof c === 'string' ? c : withListDefaults(c, defaults, depth + 1))) };
}
