// The presentations npm run bench:slides times (and whose expected refusal npm run fidelity --
// --pptx checks): the decks of ../shared/corpus/pptx (and odp once that directory exists), plus
// those of a directory (--dir DIR, category 'heldout'), and how the encrypted one must be refused.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const SLIDES_OPERATION = 'pptx-to-pdf';
// ODP is listed although pptx-to-pdf takes only PPTX today: the service is to accept it, and until
// then the bench prints the refusal under the deck's line (and still times LibreOffice on it).
export const SLIDES_EXT = /\.(pptx|pptm|ppsx|ppsm|potx|potm|odp|otp)$/i;

// An OLE compound file holding an EncryptedPackage (its password is in its name): the upload
// refuses it as password-protected, as it refuses an encrypted DOCX or XLSX.
export const SLIDES_EXPECTED_FAILURES = {
  'tika__testPPT_protected_passtika.pptx': 'password',
};

/** The corpus categories there are: pptx, and odp once ../shared/corpus/odp exists. */
export const slideCategories = (corpus) => ['pptx', ...(existsSync(join(corpus, 'odp')) ? ['odp'] : [])];

/** The decks of the corpus (and of `heldout`, category 'heldout'), sorted, filtered by `only` substrings. */
export function slideFiles(corpus, { only = [], heldout } = {}) {
  const dirs = slideCategories(corpus).map((category) => ({ category, dir: join(corpus, category) }));
  if (heldout) dirs.push({ category: 'heldout', dir: heldout });
  return dirs.flatMap(({ category, dir }) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => SLIDES_EXT.test(f) && (!only.length || only.some((s) => f.includes(s))))
          .sort()
          .map((name) => ({ category, name, file: join(dir, name) }))
      : [],
  );
}
