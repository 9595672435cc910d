// Character error rate: edit distance between the texts with runs of white space made one space,
// divided by the ground truth's length. Shared by bench:images (scan mode) and bench:ocr.

export function levenshtein(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

export const normalise = (text) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

export const cer = (got, truth) => levenshtein(normalise(got), normalise(truth)) / Math.max(1, normalise(truth).length);
