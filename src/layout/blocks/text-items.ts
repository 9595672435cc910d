/** A text's pieces between its line breaks (a cell's Alt+Enter, a shape run's a:br) as inline items, with breaks between. */
import type { InlineItem, TextStyle } from './model';

export function textItems(text: string, style: TextStyle): InlineItem[] {
  const items: InlineItem[] = [];
  text.split(/\r\n|\r|\n/).forEach((piece, i) => {
    if (i) items.push({ kind: 'break' });
    if (piece) items.push({ kind: 'text', text: piece, style });
  });
  return items;
}
