#!/usr/bin/env node
// npm run bench:word-ab -- OTHER_TREE [--rounds N] [--only TEXT]...
//
// Word → PDF Worker time of this tree against another checkout (a commit from before a change:
// `git worktree add /tmp/before <commit> && (cd /tmp/before && npm install)`), both services up at
// once and each document converted on both in turn, the order swapped every round. On this
// 2-core machine sequential runs of `npm run bench:word` drifted by 20-40% between minutes; paired,
// the two trees see the same minutes. Prints each document's median Worker time (the task's run_ms)
// on both and the change, and the sum of the medians.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(fileURLToPath(import.meta.url), '..', '..');
const args = process.argv.slice(2);
const other = args[0] && !args[0].startsWith('--') ? resolve(args[0]) : undefined;
if (!other) {
  console.error('usage: npm run bench:word-ab -- OTHER_TREE [--rounds N] [--only TEXT]...');
  process.exit(2);
}
let rounds = 7;
const only = [];
for (let i = 1; i < args.length; i++) {
  if (args[i] === '--rounds' && args[i + 1]) rounds = Math.max(1, Number(args[++i]) || 7);
  else if (args[i] === '--only' && args[i + 1]) only.push(args[++i]);
}
const DOCS = ['docx/dedoc__Tekhnicheskie_trebovaniya_GASU.docx', 'docx/poi__stress008.docx', 'docx/dedoc__diploma.docx', 'docx/poi__stress004.docx', 'doc/poi__FloatingPictures.doc', 'docx/poi__bug59058.docx', 'docx/poi__checkboxes.docx'];
const docs = DOCS.filter((d) => !only.length || only.some((s) => d.includes(s))).map((d) => resolve(here, '..', 'shared', 'corpus', d));

const say = (m) => console.error(`bench:word-ab: ${m}`);
const [mine, theirs] = await Promise.all([import(`${here}/scripts/lib/service-convert.mjs`), import(`${other}/scripts/lib/service-convert.mjs`)]);
const services = { before: await theirs.openService({}, say), now: await mine.openService({}, say) };
const times = { before: new Map(), now: new Map() };
say('warm-up: each document once on both');
for (const d of docs) for (const s of Object.values(services)) await s.convert(d);
for (let r = 0; r < rounds; r++) {
  for (const d of docs) {
    for (const k of r % 2 ? ['now', 'before'] : ['before', 'now']) {
      const res = await services[k].convert(d);
      if (!res.ok || res.workerMs == null) {
        say(`${k}: ${d} gave no time (${res.error_message ?? 'no run_ms'})`);
        continue;
      }
      times[k].set(d, [...(times[k].get(d) ?? []), res.workerMs]);
    }
  }
}
const median = (xs = []) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
};
const change = (a, b) => `${b >= a ? '+' : ''}${((b / a - 1) * 100).toFixed(1)}%`;
console.log(`${'document'.padEnd(44)} ${'before'.padStart(7)} ${'now'.padStart(7)}  change (median Worker ms of ${rounds} rounds)`);
let [sumBefore, sumNow] = [0, 0];
for (const d of docs) {
  const [a, b] = [median(times.before.get(d)), median(times.now.get(d))];
  sumBefore += a;
  sumNow += b;
  console.log(`${d.split('/').pop().slice(0, 44).padEnd(44)} ${String(a).padStart(7)} ${String(b).padStart(7)}  ${change(a, b)}`);
}
console.log(`${'sum of the medians'.padEnd(44)} ${String(sumBefore).padStart(7)} ${String(sumNow).padStart(7)}  ${change(sumBefore, sumNow)}`);
await Promise.all(Object.values(services).map((s) => s.close?.()));
process.exit(0);
