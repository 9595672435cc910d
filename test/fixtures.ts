/**
 * Extra fixtures for the operation and platform tests: a hand-built PNG, an encrypted PDF made
 * with MuPDF, a damaged PDF, ZIP reading and problem+json assertions.
 */
import { expect } from 'vitest';
import { env } from 'cloudflare:test';
import { unzipSync } from 'fflate';
import { assemblePng } from '../src/codecs/png';
import { loadMupdf } from '../src/pdf/mupdf';
import { inspect } from './helpers';

/** A valid RGB PNG of the given size, filled with one colour. */
export function makePng(width = 2, height = 2, rgb: [number, number, number] = [255, 0, 0]): Uint8Array {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(rgb, row + 1 + x * 3);
  }
  return assemblePng(width, height, 2, raw);
}

/** A MuPDF document saved with `options` as bytes, the document then freed. */
export function savedAndFreed(doc: { saveToBuffer(options: string): { asUint8Array(): Uint8Array; destroy(): void }; destroy(): void }, options = ''): Uint8Array {
  try {
    const buf = doc.saveToBuffer(options);
    try {
      return buf.asUint8Array().slice();
    } finally {
      buf.destroy();
    }
  } finally {
    doc.destroy();
  }
}

/** The PDF re-saved by MuPDF with AES-256, user password `u`, owner password `o`. */
export async function encryptPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  return savedAndFreed(mupdf.Document.openDocument(bytes, 'application/pdf').asPDF()!, 'encrypt=aes-256,user-password=u,owner-password=o');
}

/** A PDF damaged beyond repair: only its first 200 bytes (header, no page tree) survive. */
export const damagedPdf = (bytes: Uint8Array): Uint8Array => bytes.slice(0, 200);

/** ZIP member names (in archive order) and their bytes. */
export function unzip(bytes: Uint8Array): { names: string[]; files: Record<string, Uint8Array> } {
  const files = unzipSync(bytes);
  return { names: Object.keys(files), files };
}

/** The page markers of every PDF member of a ZIP, keyed by member name. */
export async function zipMarkers(bytes: Uint8Array): Promise<Record<string, string[]>> {
  const { names, files } = unzip(bytes);
  const out: Record<string, string[]> = {};
  for (const name of names) out[name] = (await inspect(files[name]!)).markers;
  return out;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  errors?: { path: string; message: string }[];
}

/** Asserts an RFC 9457 problem response with the given status and code, and returns its body. */
export async function expectProblem(res: Response, status: number, code: string): Promise<Problem> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = JSON.parse(text) as Problem;
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  return body;
}

export const newTaskId = (): string => `task_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/**
 * A task that stays queued: its Durable Object is created with the real binding but no queue
 * message is sent and nothing is charged, so the "not finished yet" paths can be observed.
 */
export async function queuedTask(
  acct: { accountId: string; keyId: string },
  plan: 'free' | 'standard' | 'business' = 'standard',
  { taskId = newTaskId(), chargeKopecks = 0 }: { taskId?: string; chargeKopecks?: number } = {},
): Promise<string> {
  await env.TASK.get(env.TASK.idFromName(taskId)).create({
    task_id: taskId,
    account_id: acct.accountId,
    key_id: acct.keyId,
    plan,
    op_path: 'rotate',
    operation_type: 'rotate_pdf',
    inputs: [],
    params_json: '{}',
    webhook_url: null,
    base_url: 'https://pdf-edge.test',
    charge_kopecks: chargeKopecks,
    charge_units: 1,
    included: false,
  });
  return taskId;
}
