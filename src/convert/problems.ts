/**
 * Parts of a document the converter could not use, reported instead of dropped in silence.
 *
 * A Word file whose styles, numbering, settings, a header, notes or a picture cannot be read still
 * converts, as Word and LibreOffice open it, but without that part the PDF looks different (headings
 * lose their size, lists their numbers). That is only acceptable when someone can see it happened:
 * the converter stays pure (bytes → bytes) and hands each such part, with the reason, to the
 * caller's sink; the operation writes them to the task's log.
 */
export interface PartProblem {
  /** The part as the file names it: "word/styles.xml", "Data stream", "picture 3 (image/png)". */
  part: string;
  /** What went wrong, for a person: "missing from the package", "not readable XML (…)". */
  reason: string;
}

export type ProblemSink = (problem: PartProblem) => void;

/** For callers that do not listen (tests of the model, experiments). */
export const ignoreProblems: ProblemSink = () => {};
