// Truncated and byte-flipped copies of corpus files of every accepted type, from the read-only
// corpus (/work/shared/corpus, MANIFEST.tsv; POISON_CORPUS overrides). Seeded: the same seed picks
// the same files and flips the same bytes. Without the corpus there are no such cases.
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { byteFlipped, rng, subSeed, truncated } from './common.mjs';

export const CORPUS_DIR = process.env.POISON_CORPUS ?? '/work/shared/corpus';

/** The accepted type of a manifest row, or null (types no operation takes: tif). */
function kindOf(path, category) {
  const ext = extname(path).toLowerCase().slice(1);
  if (category === 'pdf' && ext === 'pdf') return 'pdf';
  if (category === 'doc' && ext === 'doc') return 'doc';
  if (category === 'docx' && ext === 'docx') return 'docx';
  if (category === 'html' && /^x?html?$/.test(ext)) return 'html';
  if ((category === 'xlsx' || category === 'xls' || category === 'ods') && ext === category) return ext;
  if (category === 'pptx' && ext === 'pptx') return 'pptx';
  if (category === 'images' || category === 'ocr-image') return ext === 'jpeg' ? 'jpg' : ['jpg', 'png', 'webp'].includes(ext) ? ext : null;
  return null;
}

/** Manifest rows by accepted type: { kind: [{ path, bytes }] }; {} when the corpus is absent. */
export function corpusByKind(maxBytes = 1_000_000) {
  const manifest = join(CORPUS_DIR, 'MANIFEST.tsv');
  if (!existsSync(manifest)) return {};
  const out = {};
  const lines = readFileSync(manifest, 'utf8').split('\n').slice(1);
  for (const line of lines) {
    const [path, , , , , category, notes, bytes] = line.split('\t');
    if (!path || !category) continue;
    const kind = kindOf(path, category);
    if (!kind || Number(bytes) > maxBytes || /password|encrypt/i.test(`${path} ${notes}`)) continue;
    if (!existsSync(join(CORPUS_DIR, path))) continue;
    (out[kind] ??= []).push({ path, size: Number(bytes) });
  }
  for (const list of Object.values(out)) list.sort((a, b) => (a.path < b.path ? -1 : 1));
  return out;
}

export const TRUNCATIONS = [0.1, 0.5, 0.9];
export const FLIPS = [
  { name: 'flip8', count: () => 8 },
  { name: 'flip1e-3', count: (len) => Math.max(16, Math.floor(len / 1000)) },
];

/** [{ id, kind, source, make() }] for `perKind` seeded files of each type. */
export function corpusMutants(seed, { perKind = 1, truncations = TRUNCATIONS, flips = FLIPS } = {}) {
  const byKind = corpusByKind();
  const out = [];
  for (const kind of Object.keys(byKind).sort()) {
    const r = rng(subSeed(seed, `corpus-${kind}`));
    const pool = byKind[kind].slice();
    for (let n = 0; n < perKind && pool.length; n++) {
      const { path } = pool.splice(r.int(pool.length), 1)[0];
      const read = () => new Uint8Array(readFileSync(join(CORPUS_DIR, path)));
      const base = path.split('/').pop();
      for (const f of truncations) out.push({ id: `corpus-${kind}-trunc${Math.round(f * 100)}-${base}`, kind, source: path, mutation: `truncated to ${Math.round(f * 100)}%`, make: () => truncated(read(), f) });
      for (const flip of flips) {
        out.push({
          id: `corpus-${kind}-${flip.name}-${base}`,
          kind,
          source: path,
          mutation: `${flip.name} (seed ${subSeed(seed, `${flip.name}-${path}`)})`,
          make: () => {
            const b = read();
            return byteFlipped(b, subSeed(seed, `${flip.name}-${path}`), flip.count(b.length));
          },
        });
      }
    }
  }
  return out;
}
