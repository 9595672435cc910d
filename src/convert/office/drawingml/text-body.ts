/**
 * DrawingML text bodies (a:txBody of a sheet's or a slide's shape, xdr:txBody, p:txBody): their
 * paragraphs (a:p) and runs (a:r, a:fld, a:br) with each run's font, size, weight, slant, lines and
 * colour resolved: the run's own a:rPr over its paragraph's list level (a:lstStyle/a:lvlNpPr/
 * a:defRPr, with its margins, alignment and bullet: bullets.ts) over what the holder gives (its a:fontRef, the format's default size). Theme font
 * references (+mn-lt, +mj-lt) name the theme's fonts.
 */
import { attr, child, elements, textOf, type XmlElement } from '../../../codecs/xml';
import type { TextParagraph, TextRun } from '../model';
import { colorIn } from '../drawing-color';
import type { Theme } from '../theme';
import { BulletNumbers, bulletOf } from './bullets';

/** Characters a text body keeps at most (Excel's limit for a shape's text), and paragraphs. */
export const TEXT_BODY_CHARS_MAX = 32_767;
const PARAGRAPHS_MAX = 2_000;

/** What a run is when neither it nor its list style says: the holder's font, size and colour. */
export interface TextDefaults {
  font: string;
  size: number;
  color: string;
}

/** A run's look as it is resolved; `caps` (a:rPr cap="all") is applied to its text when read. */
type RunLook = Omit<TextRun, 'text'> & { caps?: boolean; eastAsian?: string };

/** Han, kana, Hangul and full-width forms: text an a:ea typeface is for. */
const EAST_ASIAN = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

const ALIGN: Record<string, TextParagraph['align']> = { l: 'left', ctr: 'center', r: 'right', just: 'justify', dist: 'justify' };

function fontOf(rPr: XmlElement | undefined, theme: Theme): string | undefined {
  const face = attr(child(rPr, 'latin'), 'typeface') ?? attr(child(rPr, 'cs'), 'typeface');
  if (!face) return undefined;
  if (face.startsWith('+mj')) return theme.majorFont;
  if (face.startsWith('+mn')) return theme.minorFont;
  return face;
}

/** `rPr` (a:rPr, a:defRPr, a:endParaRPr) over `base`. */
function lookOf(rPr: XmlElement | undefined, base: RunLook, theme: Theme): RunLook {
  if (!rPr) return base;
  const look = { ...base };
  const size = Number(attr(rPr, 'sz'));
  if (size >= 100 && size <= 400_000) look.size = size / 100;
  const flag = (name: string) => {
    const v = attr(rPr, name);
    return v === undefined ? undefined : v === '1' || v === 'true';
  };
  look.bold = flag('b') ?? look.bold;
  look.italic = flag('i') ?? look.italic;
  const u = attr(rPr, 'u');
  if (u !== undefined) look.underline = u !== 'none';
  const cap = attr(rPr, 'cap');
  if (cap !== undefined) look.caps = cap === 'all';
  const strike = attr(rPr, 'strike');
  if (strike !== undefined) look.strike = strike !== 'noStrike';
  look.font = fontOf(rPr, theme) ?? look.font;
  // An East Asian face named for itself (not a theme reference, whose East Asian fonts the theme reader does not keep).
  const ea = attr(child(rPr, 'ea'), 'typeface');
  if (ea && !ea.startsWith('+')) look.eastAsian = ea;
  const fill = child(rPr, 'solidFill');
  look.color = (fill && colorIn(fill, theme)) ?? look.color;
  return look;
}

const TAB_ALIGN: Record<string, 'left' | 'center' | 'right' | 'decimal'> = { l: 'left', ctr: 'center', r: 'right', dec: 'decimal' };

/** A paragraph's tab stops (a:tabLst/a:tab pos, algn), in order, 32 at most. */
function tabStops(tabLst: XmlElement | undefined): NonNullable<TextParagraph['tabs']> {
  const stops = elements(tabLst)
    .slice(0, 32)
    .map((t) => ({ pos: Number(attr(t, 'pos')) / 12_700, align: TAB_ALIGN[attr(t, 'algn') ?? 'l'] ?? 'left' }))
    .filter((t) => t.pos > 0 && t.pos < 5_000);
  return stops.sort((a, b) => a.pos - b.pos);
}

/** A spacing element (a:lnSpc, a:spcBef, a:spcAft) as a share (a:spcPct: 100,000 is 1) or points (a:spcPts: hundredths). */
function spacing(el: XmlElement | undefined): { share: number } | { points: number } | undefined {
  const pct = Number(attr(child(el, 'spcPct'), 'val'));
  if (pct >= 0 && pct <= 10_000_000) return { share: pct / 100_000 };
  const pts = Number(attr(child(el, 'spcPts'), 'val'));
  if (pts >= 0 && pts <= 158_400) return { points: pts / 100 };
  return undefined;
}

/** The paragraph's line spacing and space above and below, its own over its list level's; a share of space is of its text size. */
function spacingOf(paragraph: TextParagraph, pPr: XmlElement | undefined, levelPr: XmlElement | undefined): void {
  const pick = (name: string) => spacing(child(pPr, name)) ?? spacing(child(levelPr, name));
  const size = paragraph.runs[0]?.size ?? paragraph.size;
  const line = pick('lnSpc');
  if (line) paragraph.line = 'share' in line ? { rule: 'auto', value: line.share } : { rule: 'exact', value: line.points };
  for (const [name, key] of [['spcBef', 'spaceBefore'], ['spcAft', 'spaceAfter']] as const) {
    const space = pick(name);
    const points = space && ('share' in space ? space.share * size : space.points);
    if (points) paragraph[key] = points;
  }
}

/** The text body's paragraphs, runs cut where the body passes `most` characters (TEXT_BODY_CHARS_MAX unless the holder has less left). */
/** What a field (a:fld) shows in place of the text it saved, by its type (the slide's number for "slidenum"). */
export type FieldValues = Partial<Record<string, string>>;

/** The external address a hyperlink's relationship id names, when its holder has one. */
export type LinkTarget = (relId: string) => string | undefined;

export function readTextBody(txBody: XmlElement | undefined, theme: Theme, defaults: TextDefaults, most = TEXT_BODY_CHARS_MAX, fields: FieldValues = {}, linkTarget?: LinkTarget): TextParagraph[] {
  if (!txBody) return [];
  const lstStyle = child(txBody, 'lstStyle');
  const out: TextParagraph[] = [];
  const numbers = new BulletNumbers();
  let left = Math.min(most, TEXT_BODY_CHARS_MAX);
  for (const p of elements(txBody)) {
    if (p.name !== 'p' || out.length >= PARAGRAPHS_MAX || left <= 0) continue;
    const pPr = child(p, 'pPr');
    // The paragraph's list level (a:pPr lvl, 0-8) gives its run look, alignment, margins and bullet where it gives none.
    const level = Math.max(0, Math.min(Number(attr(pPr, 'lvl') ?? 0) || 0, 8));
    const levelPr = child(lstStyle, `lvl${level + 1}pPr`);
    const base = lookOf(child(levelPr, 'defRPr'), { ...defaults }, theme);
    const paragraph: TextParagraph = { align: ALIGN[attr(pPr, 'algn') ?? attr(levelPr, 'algn') ?? 'l'] ?? 'left', runs: [], size: base.size, font: base.font };
    const emu = (name: string) => Number(attr(pPr, name) ?? attr(levelPr, name) ?? 0) / 12700;
    if (emu('marL') > 0 && emu('marL') < 2000) paragraph.marginLeft = emu('marL');
    if (Math.abs(emu('indent')) > 0 && Math.abs(emu('indent')) < 2000) paragraph.indent = emu('indent');
    for (const r of elements(p)) {
      if (left <= 0) break;
      if (r.name === 'endParaRPr' && !paragraph.runs.length) {
        const end = lookOf(r, base, theme);
        [paragraph.size, paragraph.font] = [end.size, end.font];
      }
      if (r.name !== 'r' && r.name !== 'fld' && r.name !== 'br') continue;
      const field = r.name === 'fld' ? fields[attr(r, 'type') ?? ''] : undefined;
      const text = r.name === 'br' ? '\n' : (field ?? textOf(child(r, 't'))).slice(0, left);
      left -= text.length;
      if (!text) continue;
      const { caps, eastAsian, ...look } = lookOf(child(r, 'rPr'), base, theme);
      if (eastAsian && EAST_ASIAN.test(text)) look.font = eastAsian;
      const linkId = attr(child(child(r, 'rPr'), 'hlinkClick'), 'r:id');
      const link = linkId && linkTarget ? linkTarget(linkId) : undefined;
      paragraph.runs.push({ text: caps ? text.toUpperCase() : text, ...look, ...(link ? { link } : {}) });
    }
    // A paragraph without text shows no bullet (and does not count as a number).
    const bullet = paragraph.runs.some((r) => r.text.trim()) ? bulletOf(pPr, levelPr, level, numbers, theme) : undefined;
    if (bullet) paragraph.bullet = bullet;
    spacingOf(paragraph, pPr, levelPr);
    const tabs = tabStops(child(pPr, 'tabLst') ?? child(levelPr, 'tabLst'));
    if (tabs.length) paragraph.tabs = tabs;
    if ((attr(pPr, 'rtl') ?? attr(levelPr, 'rtl')) === '1') paragraph.rtl = true;
    out.push(paragraph);
  }
  return out;
}
