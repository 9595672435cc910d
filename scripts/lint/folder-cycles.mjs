#!/usr/bin/env node
// Folder-level import circles (issue 41): dependency-cruiser's no-circular rule sees modules, so two
// folders whose files import each other in different files (once word/flow → word/layout → word/flow)
// pass it. This collapses every module of src/ to its folder, leaves type-only imports out (nothing
// runs through them), and fails on any circle between folders, printing an import that closes it.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const run = spawnSync(join(root, 'node_modules', '.bin', 'depcruise'), ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20 });
if (run.status !== 0 && !run.stdout) {
  console.error(run.stderr);
  process.exit(1);
}
const { modules } = JSON.parse(run.stdout);
const edges = new Map(); // folder -> Map(folder -> example "a.ts → b.ts")
for (const m of modules) {
  if (!m.source.startsWith('src/')) continue;
  const from = dirname(m.source);
  for (const d of m.dependencies) {
    if (!d.resolved.startsWith('src/') || d.dependencyTypes.includes('type-only')) continue;
    const to = dirname(d.resolved);
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${m.source} → ${d.resolved}`);
  }
}
// Tarjan's strongly connected components over the folder graph.
let index = 0;
const stack = [];
const info = new Map();
const circles = [];
function connect(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!info.has(w)) {
      connect(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) circles.push(component);
  }
}
for (const v of edges.keys()) if (!info.has(v)) connect(v);
if (circles.length) {
  console.error(`lint:imports: ${circles.length} folder circle(s):`);
  for (const c of circles) {
    console.error(`  ${c.join(' ⇄ ')}`);
    for (const a of c) for (const [b, example] of edges.get(a) ?? []) if (c.includes(b)) console.error(`    ${example}`);
  }
  process.exit(1);
}
console.log(`lint:imports: no folder circle among ${new Set(modules.map((m) => dirname(m.source))).size} folders`);
