/**
 * Tracked changes, shown as LibreOffice prints them (and Word with "All Markup"): inserted text
 * underlined and deleted text struck through, both in their author's colour. Word's own PDF export
 * shows the markup too unless told otherwise; showing the final text instead would hide deletions
 * a reader of the PDF may need to see.
 */
import type { RunStyle } from './index';

/** LibreOffice's author colours (its COL_AUTHOR1_DARK … COL_AUTHOR9_DARK): its reference PDFs show the first author in #C69200. */
const AUTHOR_COLORS = ['C69200', '0646A2', '579D1C', '692B9D', 'C5000B', '008080', '8C8400', '35556B', 'D17600'];

export type RevisionKind = 'inserted' | 'deleted';

/**
 * The colour of the author with this index in LibreOffice's author table. A .doc's changes name
 * their author by index in its SttbfRMark, which LibreOffice takes over in order (entry 0 is
 * "Unknown" in the files Word and LibreOffice write, so the first real author is the second colour).
 */
export const authorColor = (index: number): string => AUTHOR_COLORS[index % AUTHOR_COLORS.length]!;

/** DOCX authors' colours: LibreOffice hands them out in the order the document's changes name them. */
export class RevisionAuthors {
  private readonly order = new Map<string, number>();

  colorOf(author: string | undefined): string {
    const key = author ?? '';
    let index = this.order.get(key);
    if (index === undefined) this.order.set(key, (index = this.order.size));
    return authorColor(index);
  }
}

/** A run's look as a tracked change: underlined (inserted) or struck through (deleted), in the author's colour. */
export function markRevision<T extends Pick<RunStyle, 'underline' | 'strike' | 'color'>>(style: T, kind: RevisionKind, color: string): T {
  return kind === 'inserted' ? { ...style, underline: 'single', color } : { ...style, strike: true, color };
}
