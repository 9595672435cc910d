import type { Block, Section } from './index';

/**
 * An empty paragraph that only holds a section break before a continuous section takes no line:
 * LibreOffice leaves it out, whatever its style or mark formatting, from DOCX (a paragraph whose
 * only content is its w:sectPr) and from .doc (an empty last paragraph, holding the break
 * character). LibreOffice writes one at the end of each of its own sections, so its agenda and
 * letter templates ran a page longer with them. From DOCX it keeps the line when the section
 * begins with a table (`keepAfterTable`; tried in LibreOffice: stress014.docx, and the agenda
 * templates' sections that begin with one), from .doc it does not (the same templates saved as
 * .doc). A section's only paragraph stays.
 */
export function dropSectionMarks(sections: Section[], isMark: (block: Block) => boolean, keepAfterTable: boolean): void {
  for (let i = 1; i < sections.length; i++) {
    const before = sections[i - 1]!.blocks;
    if (keepAfterTable && before[0]!.kind === 'table') continue;
    if (sections[i]!.start === 'continuous' && before.length > 1 && isMark(before[before.length - 1]!)) before.pop();
  }
}
