/**
 * A run's font as Word resolves it (family substituted, size, bold, italic, kerning), and the run
 * that sizes a paragraph's lines: the rules both the HTML path (layout/) and our own line breaker
 * (layout/blocks/, through blocks/to-blocks.ts) measure text by.
 */
import { substituteFamily } from '../../../fonts/catalog';
import type { Paragraph, RunStyle } from '../model/index';
import type { RunFace } from '../../../layout/blocks/model';

/** The document's defaults a run without its own font or size falls back to. */
export interface RunDefaults {
  defaultFont: string;
  defaultSize: number;
}

/** A run's face as layout draws it (layout/blocks/model.ts RunFace): `kern` where the run asks for kerning from a size it has (Word's rule for w:kern). */
export type ResolvedRun = RunFace;

export function resolveRun(style: RunStyle, ctx: RunDefaults): ResolvedRun {
  const size = style.size ?? ctx.defaultSize;
  return {
    family: substituteFamily(style.font ?? ctx.defaultFont),
    bold: !!style.bold,
    italic: !!style.italic,
    size: size * (style.vertAlign ? 0.65 : 1),
    kern: !!style.kern && size >= style.kern,
  };
}

/** The largest font size on the paragraph's runs (its mark when it has none): Word sizes lines by it. */
export function largestRun(p: Paragraph, ctx: RunDefaults): ResolvedRun {
  let best = resolveRun(p.props.markStyle ?? {}, ctx);
  let seenText = false;
  for (const it of p.inlines) {
    if ((it.kind === 'text' && !it.style.hidden && it.text) || it.kind === 'field') {
      const r = resolveRun({ ...it.style, vertAlign: undefined }, ctx);
      if (!seenText || r.size > best.size) best = r;
      seenText = true;
    }
  }
  return best;
}
