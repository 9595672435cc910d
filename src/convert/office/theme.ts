/**
 * The document theme (word/theme/theme1.xml): the major/minor fonts and the colour scheme that
 * asciiTheme="minorHAnsi" or w:themeColor="accent1" refer to. Word stores both the theme reference and
 * (usually) a cached concrete value; the theme reference wins, as in Word.
 */
import { attr, child, elements, type XmlElement } from '../../codecs/xml';

export interface Theme {
  majorFont?: string;
  minorFont?: string;
  colors: Map<string, string>;
}

export const EMPTY_THEME: Theme = { colors: new Map() };

export function parseTheme(root: XmlElement | undefined): Theme {
  if (!root) return EMPTY_THEME;
  const elementsEl = child(root, 'themeElements');
  const fontScheme = child(elementsEl, 'fontScheme');
  const latin = (name: string) => {
    const face = attr(child(child(fontScheme, name), 'latin'), 'typeface');
    return face ? face : undefined;
  };
  const colors = new Map<string, string>();
  for (const c of elements(child(elementsEl, 'clrScheme'))) {
    const srgb = child(c, 'srgbClr');
    const sys = child(c, 'sysClr');
    const value = attr(srgb, 'val') ?? attr(sys, 'lastClr') ?? (attr(sys, 'val') === 'window' ? 'FFFFFF' : attr(sys, 'val') === 'windowText' ? '000000' : undefined);
    if (value && /^[0-9a-fA-F]{6}$/.test(value)) colors.set(c.name, value.toUpperCase());
  }
  return { majorFont: latin('majorFont'), minorFont: latin('minorFont'), colors };
}

/** WordprocessingML theme colour names → DrawingML colour scheme slots. */
const THEME_SLOTS: Record<string, string> = {
  dark1: 'dk1',
  light1: 'lt1',
  dark2: 'dk2',
  light2: 'lt2',
  text1: 'dk1',
  background1: 'lt1',
  text2: 'dk2',
  background2: 'lt2',
  hyperlink: 'hlink',
  followedHyperlink: 'folHlink',
};

/**
 * Resolve a w:color / w:shd / border colour: themeColor (with themeTint/themeShade, 0..FF hex) over the
 * cached val. Returns 'auto' for automatic colour, undefined when nothing usable is given.
 */
export function resolveColor(
  theme: Theme,
  val: string | undefined,
  themeColor: string | undefined,
  tint: string | undefined,
  shade: string | undefined,
): string | undefined {
  let base: string | undefined;
  if (themeColor) base = theme.colors.get(THEME_SLOTS[themeColor] ?? themeColor);
  if (!base) {
    if (!val) return undefined;
    if (val === 'auto') return 'auto';
    if (!/^[0-9a-fA-F]{6}$/.test(val)) return undefined;
    return val.toUpperCase();
  }
  let [r, g, b] = [0, 2, 4].map((i) => parseInt(base!.slice(i, i + 2), 16)) as [number, number, number];
  if (tint && /^[0-9a-fA-F]{2}$/.test(tint)) {
    const t = parseInt(tint, 16) / 255;
    [r, g, b] = [r, g, b].map((c) => Math.round(255 - (255 - c) * t)) as [number, number, number];
  }
  if (shade && /^[0-9a-fA-F]{2}$/.test(shade)) {
    const s = parseInt(shade, 16) / 255;
    [r, g, b] = [r, g, b].map((c) => Math.round(c * s)) as [number, number, number];
  }
  return [r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** asciiTheme / hAnsiTheme / cstheme values → the theme's font ("minorHAnsi" → minor latin). */
export function themeFont(theme: Theme, ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  // East Asian and complex-script theme fonts are usually empty in Western themes; the latin face is
  // what Word and LibreOffice show for Latin/Cyrillic text in such runs.
  return ref.startsWith('major') ? theme.majorFont : ref.startsWith('minor') ? theme.minorFont : undefined;
}
