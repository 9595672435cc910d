/** A Word paragraph's line height and where its text sits in the line (Word's HTML path; our line breaker asks layout/blocks/line-box.ts directly). */
import type { FontBook } from '../../../layout/text/font-book';
import { lineBoxOf } from '../../../layout/blocks/line-box';
import type { Paragraph } from '../model/index';
import { largestRun, type RunDefaults } from './runs';

/** What a line box is measured with: the faces, the document's defaults, and whether lines leave out the font's line gap. */
export interface LineBoxContext extends RunDefaults {
  fonts: FontBook;
  /** Single line height without the font's line gap (WordDocument.noLeading). */
  noLeading?: boolean;
}

/** The line box of a paragraph's largest run with its spacing (layout/blocks/line-box.ts lineBoxOf). */
export function lineBox(p: Paragraph, ctx: LineBoxContext): { height: number; raise: number } {
  return lineBoxOf(largestRun(p, ctx), p.props.line, ctx);
}
