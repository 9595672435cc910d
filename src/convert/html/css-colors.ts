/**
 * Colours as MuPDF's CSS reader takes them (html-to-pdf): it reads #hex, names and plain rgb(),
 * but draws `rgba(0, 0, 0, .87)` text not at all, `hsl()` as black, and misreads `rgb(r g b / a)`.
 * Each such colour is written as #rrggbb; a colour with alpha is mixed over white, which is what a
 * translucent colour on a white page shows.
 */

export function opaqueColors(css: string): string {
  return css.replace(/\b(rgba?|hsla?)\(\s*([^()]*)\)/gi, (whole, fn: string, args: string) => {
    const parts = args.split(/[\s,/]+/).filter(Boolean);
    if (parts.length < 3) return whole;
    const rgb = fn.toLowerCase().startsWith('hsl') ? hslToRgb(parts) : parts.slice(0, 3).map(channel);
    if (rgb.some((c) => !Number.isFinite(c))) return whole;
    const alpha = parts[3] === undefined ? 1 : fraction(parts[3]);
    if (!Number.isFinite(alpha)) return whole;
    if (alpha <= 0.02) return 'transparent';
    const mixed = rgb.map((c) => Math.round(c * alpha + 255 * (1 - alpha)));
    return `#${mixed.map((c) => Math.max(0, Math.min(255, c)).toString(16).padStart(2, '0')).join('')}`;
  });
}

/** An rgb() channel: 0-255 or a percentage. */
function channel(value: string): number {
  return value.endsWith('%') ? (Number.parseFloat(value) * 255) / 100 : Number.parseFloat(value);
}

/** An alpha: 0-1 or a percentage. */
function fraction(value: string): number {
  return value.endsWith('%') ? Number.parseFloat(value) / 100 : Number.parseFloat(value);
}

/** hsl(h s l) to 0-255 channels (CSS Color 4's conversion). */
function hslToRgb([h, s, l]: string[]): number[] {
  const hue = (((Number.parseFloat(h!) * (h!.endsWith('turn') ? 360 : h!.endsWith('rad') ? 180 / Math.PI : 1)) % 360) + 360) % 360;
  const [sat, light] = [fraction(s!.endsWith('%') ? s! : `${s}%`), fraction(l!.endsWith('%') ? l! : `${l}%`)];
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    return light - sat * Math.min(light, 1 - light) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)].map((v) => v * 255);
}
