import { base64, encodePng, type Rgb } from '../codecs/dib';
import type { ClipArea, Fill, Matrix, Painter, Stroke, TextRun } from './painter';

export const n2 = (v: number) => (Number.isFinite(v) ? String(Math.round(v * 100) / 100) : '0');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A painter that writes an SVG document (viewBox = the metafile's frame, stretched over the picture). */
export class SvgPainter implements Painter {
  private out: string[] = [];
  private view = '0 0 1 1';

  begin(x: number, y: number, w: number, h: number): void {
    this.view = `${n2(x)} ${n2(y)} ${n2(w)} ${n2(h)}`;
  }

  path(d: string, fill: Fill | undefined, stroke: Stroke | undefined): void {
    const f = fill ? `fill="${fill.color}"${fill.evenOdd ? ' fill-rule="evenodd"' : ''}` : 'fill="none"';
    let st = '';
    if (stroke) {
      st = ` stroke="${stroke.color}" stroke-width="${n2(stroke.width)}"`;
      if (stroke.dash.length) st += ` stroke-dasharray="${stroke.dash.map(n2).join(' ')}"`;
      st += ` stroke-linejoin="${stroke.join}" stroke-linecap="${stroke.cap}"`;
    }
    this.out.push(`<path d="${d}" ${f}${st}/>`);
  }

  text(t: TextRun): void {
    let xs = '0';
    // SVG places characters one by one only for start-anchored text.
    if (t.advances && t.advances.length >= t.text.length && t.text.length > 1 && t.anchor === 'start') {
      let acc = 0;
      const list = [0];
      for (let i = 0; i < t.text.length - 1; i++) list.push((acc += t.advances[i]!));
      xs = list.map(n2).join(' ');
    }
    const rot = Math.abs(t.angle) > 0.01 ? ` rotate(${n2(t.angle)})` : '';
    const deco = [t.underline && 'underline', t.strike && 'line-through'].filter(Boolean).join(' ');
    this.out.push(
      `<text transform="translate(${n2(t.x)} ${n2(t.y)})${rot}" x="${xs}" y="${n2(t.base)}" font-family="${t.family}" font-size="${n2(t.em)}"` +
        `${t.bold ? ' font-weight="bold"' : ''}${t.italic ? ' font-style="italic"' : ''}${deco ? ` text-decoration="${deco}"` : ''}` +
        `${t.anchor !== 'start' ? ` text-anchor="${t.anchor}"` : ''} fill="${t.color}" xml:space="preserve">${esc(t.text.replace(/[\u0000-\u001f]/g, ' '))}</text>`,
    );
  }

  image(img: Rgb, at: Matrix): void {
    // Axis-aligned only (a turned picture keeps its box): flips become a scale.
    const [sx, , , sy, tx, ty] = at;
    const flip = sx < 0 || sy < 0 ? ` transform="translate(${n2(tx)} ${n2(ty)}) scale(${sx < 0 ? -1 : 1} ${sy < 0 ? -1 : 1})"` : '';
    const pos = flip ? 'x="0" y="0"' : `x="${n2(tx)}" y="${n2(ty)}"`;
    this.out.push(`<image ${pos} width="${n2(Math.abs(sx))}" height="${n2(Math.abs(sy))}" preserveAspectRatio="none"${flip} href="data:image/png;base64,${base64(encodePng(img))}"/>`);
  }

  /** Clips are not written to SVG (a preview of the drawing, not its print). */
  clip(_areas: readonly ClipArea[]): void {}

  get drawn(): number {
    return this.out.length;
  }

  svg(): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="${this.view}" preserveAspectRatio="none">${this.out.join('')}</svg>`;
  }
}
