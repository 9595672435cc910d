/**
 * The poison suite's slice inside `npm test` (the whole suite: `npm run fuzz`, scripts/fuzz.mjs).
 * Each hostile file goes through the service with the real local bindings and queues; it must
 * end (done, or failed with the payment returned exactly: the balance back where it was), never
 * stay unfinished, never answer 5xx; and after it a normal DOCX, HTML and PDF must still convert
 * (a failure there is a poisoned isolate). The generators are the suite's own (scripts/fuzz/).
 */
import { describe, expect, test } from 'vitest';
import { balanceOf, markerPdf, newAccount, type TaskRecord, type TestAccount } from './helpers';
import { byteFlipped, truncated } from '../scripts/fuzz/common.mjs';
import { nestedTablesDocx, normalDocx } from '../scripts/fuzz/generate-docx.mjs';
import { nestedHtml, normalHtml } from '../scripts/fuzz/generate-html.mjs';
import { declaredPng } from '../scripts/fuzz/generate-images.mjs';

/** A hostile task must end within this; the watchdog (TASK_WATCHDOG_SECONDS) is the service's own bound. */
const HOSTILE_BOUND_MS = 240_000;
const CANARY_BOUND_MS = 90_000;

interface Case {
  name: string;
  file: () => Promise<Uint8Array> | Uint8Array;
  filename: string;
  op: string;
  body: (fileId: string) => Record<string, unknown>;
  /** A well-formed file: a failure must not call it damaged. */
  wellFormed: boolean;
}

const CASES: Case[] = [
  { name: 'DOCX tables nested 12 deep → word-to-pdf', file: () => nestedTablesDocx(12), filename: 'tables-12.docx', op: 'word-to-pdf', body: (id) => ({ file_id: id }), wellFormed: true },
  { name: 'DOCX tables nested 300 deep → word-to-pdf', file: () => nestedTablesDocx(300), filename: 'tables-300.docx', op: 'word-to-pdf', body: (id) => ({ file_id: id }), wellFormed: true },
  { name: 'HTML divs nested 1,000 deep → html-to-pdf', file: () => nestedHtml('divs', 1000), filename: 'divs-1000.html', op: 'html-to-pdf', body: (id) => ({ file_id: id }), wellFormed: true },
  { name: 'DOCX truncated at 80% → word-to-pdf', file: () => truncated(normalDocx('TRUNC'), 0.8), filename: 'truncated.docx', op: 'word-to-pdf', body: (id) => ({ file_id: id }), wellFormed: false },
  { name: 'PDF with 24 bytes flipped (seed 39) → to-txt', file: async () => byteFlipped(await markerPdf(3, 'FLIP'), 39, 24), filename: 'flipped.pdf', op: 'to-txt', body: (id) => ({ file_id: id }), wellFormed: false },
  { name: 'PNG declaring 65535×65535 over a 1 KB IDAT → jpg-to-pdf', file: () => declaredPng(65535, 65535, 1024), filename: 'declared.png', op: 'jpg-to-pdf', body: (id) => ({ file_ids: [id] }), wellFormed: false },
];

const kopecks = (s: string) => Math.round(Number(s) * 100);

/** Every response of the API here: never 5xx. */
async function noServerError(res: Response, what: string): Promise<Response> {
  if (res.status >= 500) throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`);
  return res;
}

/** Polls until the task ends; null when it did not end within the bound (stuck). */
async function ended(acct: TestAccount, taskId: string, boundMs: number): Promise<TaskRecord | null> {
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline) {
    const res = await noServerError(await acct.api(`/v1/tasks/${taskId}?wait=5`), `GET /v1/tasks/${taskId}`);
    expect(res.status).toBe(200);
    const rec = await res.json<TaskRecord>();
    if (rec.status === 'done' || rec.status === 'failed') return rec;
  }
  return null;
}

async function start(acct: TestAccount, op: string, body: unknown): Promise<Response> {
  return noServerError(await acct.json(`/v1/pdf/${op}`, body), `POST /v1/pdf/${op}`);
}

async function uploaded(acct: TestAccount, bytes: Uint8Array, name: string): Promise<string> {
  const res = await noServerError(await acct.upload(bytes, name), `upload ${name}`);
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  return (await res.json<{ file_id: string }>()).file_id;
}

/** A normal DOCX, HTML and PDF, each through its converter: all must be done. */
async function canaries(acct: TestAccount): Promise<string[]> {
  const inputs = [
    { op: 'word-to-pdf', id: await uploaded(acct, normalDocx(), 'canary.docx') },
    { op: 'html-to-pdf', id: await uploaded(acct, normalHtml(), 'canary.html') },
    { op: 'to-txt', id: await uploaded(acct, await markerPdf(2, 'CANARY'), 'canary.pdf') },
  ];
  const outcomes = await Promise.all(
    inputs.map(async ({ op, id }) => {
      const res = await start(acct, op, { file_id: id });
      expect(res.status, `${op} canary`).toBe(202);
      const rec = await ended(acct, (await res.json<{ task_id: string }>()).task_id, CANARY_BOUND_MS);
      return rec?.status === 'done' ? '' : `${op}: ${rec ? `failed: ${rec.error_message}` : `not ended within ${CANARY_BOUND_MS / 1000} s`}`;
    }),
  );
  return outcomes.filter(Boolean);
}

describe('poison slice (npm run fuzz has the whole suite)', () => {
  test.each(CASES)(
    '$name: ends (done, or failed with an exact refund), no 5xx, and a normal DOCX, HTML and PDF still convert after it',
    async (c) => {
      const acct = await newAccount({ balance: '50.00' });
      const before = kopecks(await balanceOf(acct));
      const up = await noServerError(await acct.upload(await c.file(), c.filename), `upload ${c.filename}`);
      // A refusal at upload (4xx, nothing charged) is an ending too; the converters must still work after it.
      if (up.status === 201) {
        const { file_id } = await up.json<{ file_id: string }>();
        const res = await start(acct, c.op, c.body(file_id));
        if (res.status === 202) {
          const { task_id } = await res.json<{ task_id: string }>();
          const rec = await ended(acct, task_id, HOSTILE_BOUND_MS);
          expect(rec, `the ${c.op} task of ${c.filename} did not end within ${HOSTILE_BOUND_MS / 1000} s`).not.toBeNull();
          const after = kopecks(await balanceOf(acct));
          console.log(JSON.stringify({ poison_case: c.filename, op: c.op, status: rec!.status, error_message: rec!.error_message }));
          if (rec!.status === 'failed') {
            expect(rec!.refunded, `failed (${rec!.error_message}) but not refunded`).toBe(true);
            expect(after, `failed (${rec!.error_message}): the balance must be back exactly`).toBe(before);
            if (c.wellFormed) expect(rec!.error_message, 'a well-formed file is not damaged').not.toMatch(/damaged/i);
          } else {
            expect(rec!.refunded).toBe(false);
            expect(after).toBe(before - kopecks(rec!.charge));
          }
        } else {
          console.log(JSON.stringify({ poison_case: c.filename, op: c.op, refused: res.status, body: await res.clone().text() }));
          expect(res.status).toBeLessThan(500);
        }
      } else {
        console.log(JSON.stringify({ poison_case: c.filename, upload_refused: up.status, body: await up.clone().text() }));
        expect(up.status).toBeLessThan(500);
      }

      const spent = kopecks(await balanceOf(acct));
      const poisoned = await canaries(acct);
      expect(poisoned, `normal files failed after ${c.filename}`).toEqual([]);
      // Three canaries of one unit each.
      expect(kopecks(await balanceOf(acct))).toBe(spent - 3 * 125);
    },
    HOSTILE_BOUND_MS + 4 * CANARY_BOUND_MS,
  );
});
