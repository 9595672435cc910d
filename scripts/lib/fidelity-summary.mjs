// npm run fidelity's summary: per-format scores of the service's PDFs (and of the Node path's with
// --node), refusals of the documents without a reference, time beside LibreOffice's cold time,
// the Worker's WASM heap, and how often the Node and Worker paths agree.

export const LOW = 0.6;

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const round3 = (x) => (x === undefined ? null : Math.round(x * 1000) / 1000);
const f3 = (x) => (typeof x === 'number' ? x.toFixed(3) : '  -  ');
const scoreOf = (r) => (r?.ok && typeof r.score === 'number' ? r.score : 0); // a failure scores 0

/** coldTarget: the issue's target as a share of LibreOffice's cold time (Word: 0.1); null: none to count. */
export function summarize(rows, { categories, node, notes, coldTarget = 0.1 }) {
  const scored = rows.filter((r) => r.reference);
  const summary = { documents: rows.length, scored: scored.length, categories: {} };
  for (const cat of categories) {
    const rs = scored.filter((r) => r.category === cat);
    if (!rs.length) continue;
    const scores = rs.map((r) => scoreOf(r.ours));
    const converted = rs.filter((r) => r.ours.ok);
    const baselines = rs.filter((r) => r.baseline).map((r) => (r.baseline.ok ? (r.baseline.score ?? 0) : 0));
    // (pages/words/visual: means over the converted documents; mean/min: over all, a failure scoring 0)
    summary.categories[cat] = {
      documents: rs.length,
      failed: rs.filter((r) => !r.ours.ok).map((r) => r.file),
      mean: round3(mean(scores)),
      min: round3(Math.min(...scores)),
      below: scores.filter((s) => s < LOW).length,
      meanPages: round3(mean(converted.map((r) => r.ours.pages ?? 0))),
      meanWords: round3(mean(converted.map((r) => r.ours.words ?? 0))),
      meanVisual: round3(mean(converted.map((r) => r.ours.visual ?? 0))),
      baselineMean: round3(mean(baselines)),
      baselineOpened: rs.filter((r) => r.baseline?.ok).length,
    };
    if (node) {
      const ns = rs.map((r) => scoreOf(r.node));
      Object.assign(summary.categories[cat], { nodeMean: round3(mean(ns)), nodeMin: round3(Math.min(...ns)), nodeFailed: rs.filter((r) => !r.node?.ok).map((r) => r.file) });
    }
  }
  const noRef = rows.filter((r) => !r.reference);
  summary.unscored = noRef.map((r) => ({ file: r.file, expected: r.expectedProblem, got: r.ours.ok ? 'converted' : (r.ours.problem ?? r.ours.error), at: r.ours.stage ?? null, ok: r.asExpected }));

  // Times of the documents the service converted: in the Worker, and what the user waits.
  const conv = rows.filter((r) => r.ours.ok);
  const withWorker = conv.filter((r) => typeof r.ours.workerMs === 'number');
  const timed = conv.filter((r) => r.soffice?.ok);
  const timedWorker = timed.filter((r) => typeof r.ours.workerMs === 'number');
  if (conv.length) {
    const user = sum(conv.map((r) => r.ours.userMs));
    const worker = sum(withWorker.map((r) => r.ours.workerMs));
    summary.time = {
      documents: conv.length,
      workerDocuments: withWorker.length,
      workerTotalMs: withWorker.length ? worker : null,
      workerMeanMs: withWorker.length ? Math.round(worker / withWorker.length) : null,
      userTotalMs: user,
      userMeanMs: Math.round(user / conv.length),
    };
  }
  if (timed.length) {
    const lo = sum(timed.map((r) => r.soffice.ms));
    const user = sum(timed.map((r) => r.ours.userMs));
    const worker = sum(timedWorker.map((r) => r.ours.workerMs));
    Object.assign(summary.time, {
      compared: timed.length,
      sofficeTotalMs: lo,
      sofficeMeanMs: Math.round(lo / timed.length),
      // LibreOffice cold / ours, over the same documents
      ratio: timedWorker.length ? round3(sum(timedWorker.map((r) => r.soffice.ms)) / Math.max(worker, 1)) : null,
      userRatio: round3(lo / Math.max(user, 1)),
    });
    // The issue's target: each document in at most a tenth of LibreOffice's cold time.
    if (coldTarget != null) {
      Object.assign(summary.time, {
        coldTarget,
        withinTenth: timedWorker.filter((r) => r.ours.workerMs <= r.soffice.ms / (1 / coldTarget)).length,
        withinTenthUser: timed.filter((r) => r.ours.userMs <= r.soffice.ms / (1 / coldTarget)).length,
      });
    }
  }
  const heaps = conv.filter((r) => typeof r.ours.heapBytes === 'number');
  if (heaps.length) {
    const top = heaps.reduce((a, b) => (b.ours.heapBytes > a.ours.heapBytes ? b : a));
    summary.memory = { maxHeapMB: round3(top.ours.heapBytes / 1e6), maxHeapFile: top.file };
  }
  if (node) {
    const compared = rows.filter((r) => r.agreement);
    summary.agreement = { agree: compared.filter((r) => r.agreement.agree).length, documents: compared.length, differ: compared.filter((r) => !r.agreement.agree).map((r) => ({ file: r.file, why: r.agreement.why })) };
    const nodeConv = rows.filter((r) => r.node?.ok);
    if (nodeConv.length) {
      summary.nodeTime = { documents: nodeConv.length, meanMs: Math.round(mean(nodeConv.map((r) => r.node.ms))), processMeanMs: Math.round(mean(nodeConv.map((r) => r.node.processMs))) };
      summary.nodeMemory = { maxHeapMB: round3(Math.max(...nodeConv.map((r) => r.node.heapBytes)) / 1e6), maxPeakRssMB: round3(Math.max(...nodeConv.map((r) => r.node.peakRssBytes)) / 1e6) };
    }
  }
  summary.notes = notes;
  return summary;
}

export function printSummary(summary, { baseline, node }) {
  for (const [cat, c] of Object.entries(summary.categories)) {
    console.log(
      `${cat.padEnd(4)}: mean ${f3(c.mean)}, min ${f3(c.min)}, ${c.below}/${c.documents} below ${LOW}` +
        ` (pages ${f3(c.meanPages)}, words ${f3(c.meanWords)}, visual ${f3(c.meanVisual)})` +
        (c.failed.length ? `, ${c.failed.length} failed: ${c.failed.join(', ')}` : '') +
        (node ? `; Node path mean ${f3(c.nodeMean)}, min ${f3(c.nodeMin)}${c.nodeFailed.length ? `, ${c.nodeFailed.length} failed` : ''}` : '') +
        (baseline ? `; MuPDF baseline mean ${f3(c.baselineMean)} (opened ${c.baselineOpened}/${c.documents})` : ''),
    );
  }
  const noRef = summary.unscored;
  if (noRef.length) {
    const good = noRef.filter((r) => r.ok).length, expected = noRef.filter((r) => r.expected).length;
    console.log(`unscored (no reference): ${good}/${expected} refused with the expected problem` + noRef.filter((r) => r.ok === false).map((r) => `; WRONG ${r.file}`).join(''));
  }
  const t = summary.time;
  if (t) {
    const worker = t.workerMeanMs === null ? 'Worker -' : `Worker ${t.workerMeanMs} ms mean / ${t.workerTotalMs} ms total`;
    console.log(`time over ${t.documents} documents (the service's, one after another): ${worker}; user waits ${t.userMeanMs} ms mean / ${t.userTotalMs} ms total`);
    if (t.compared) {
      const ratio = t.ratio === null ? '' : `LibreOffice ${t.ratio.toFixed(2)}× the Worker's time, `;
      const within = t.coldTarget == null ? '' : `; within ${t.coldTarget}× of LibreOffice's cold time: ${t.withinTenth}/${t.compared} Worker, ${t.withinTenthUser}/${t.compared} user`;
      console.log(`  LibreOffice cold ${t.sofficeMeanMs} ms mean / ${t.sofficeTotalMs} ms total over ${t.compared}: ${ratio}${t.userRatio.toFixed(2)}× the user's wait${within}`);
    }
  }
  if (summary.memory) console.log(`memory: the Worker's MuPDF WASM heap up to ${summary.memory.maxHeapMB.toFixed(1)} MB (${summary.memory.maxHeapFile}; it never shrinks, so later documents carry earlier ones' peaks)`);
  if (node && summary.agreement) {
    const a = summary.agreement;
    console.log(`Node and Worker paths agree on ${a.agree}/${a.documents} documents (page count and MuPDF's text of each page)`);
    for (const d of a.differ) console.log(`  differ: ${d.file}: ${d.why}`);
    if (summary.nodeTime) {
      console.log(
        `  Node path: ${summary.nodeTime.meanMs} ms mean conversion, ${summary.nodeTime.processMeanMs} ms mean fresh process;` +
          ` MuPDF heap up to ${summary.nodeMemory.maxHeapMB.toFixed(1)} MB, peak RSS up to ${summary.nodeMemory.maxPeakRssMB.toFixed(1)} MB`,
      );
    }
  }
  for (const n of summary.notes) console.log(`note: ${n}`);
}
