/**
 * Test helpers: a client over the Worker's own fetch handler (SELF) with real local bindings,
 * PDF fixtures made with pdf-lib, and readers that inspect results with MuPDF.
 */
import { SELF } from 'cloudflare:test';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import { loadMupdf } from '../src/pdf/mupdf';

export const BASE = 'https://pdf-edge.test';
export const ADMIN = { 'x-admin-token': 'test-admin-token', 'content-type': 'application/json' };

export async function admin(path: string, body?: unknown, method = 'POST'): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, { method, headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });
}

export interface TestAccount {
  accountId: string;
  keyId: string;
  secret: string;
  api(path: string, init?: RequestInit): Promise<Response>;
  json(path: string, body: unknown): Promise<Response>;
  upload(bytes: Uint8Array, name: string): Promise<Response>;
}

let counter = 0;
export async function newAccount(opts: { plan?: string; balance?: string; limit?: string; period?: string; purchasedAt?: string } = {}): Promise<TestAccount> {
  const res = await admin('/admin/accounts', {
    email: `t${Date.now()}-${counter++}@test.dev`,
    plan: opts.plan ?? 'standard',
    balance: opts.balance ?? '100.00',
    purchased_at: opts.purchasedAt,
  });
  if (res.status !== 201) throw new Error(`create account: ${res.status} ${await res.text()}`);
  const { account_id } = await res.json<{ account_id: string }>();
  const keyRes = await admin(`/admin/accounts/${account_id}/keys`, { name: 'test key', limit: opts.limit, period: opts.period });
  const { key_id, secret } = await keyRes.json<{ key_id: string; secret: string }>();
  const api = (path: string, init: RequestInit = {}) =>
    SELF.fetch(`${BASE}${path}`, { ...init, headers: { 'x-api-key': secret, ...(init.headers as Record<string, string>) } });
  return {
    accountId: account_id,
    keyId: key_id,
    secret,
    api,
    json: (path, body) => api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    upload: (bytes, name) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      return api('/v1/upload', { method: 'POST', body: form });
    },
  };
}

export async function uploadOk(acct: TestAccount, bytes: Uint8Array, name: string): Promise<{ file_id: string; pages: number | null; size: number }> {
  const res = await acct.upload(bytes, name);
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  return res.json();
}

export interface TaskRecord {
  task_id: string;
  status: string;
  operation_type: string;
  charge: string;
  charge_units: number;
  refunded: boolean;
  filename: string | null;
  content_type: string | null;
  size: number | null;
  download_url: string | null;
  result_available: boolean;
  error_message: string | null;
  progress: { done: number; total: number };
}

/** Starts an operation (asserting 202) and long-polls until it ends. */
export async function runOp(acct: TestAccount, op: string, body: unknown): Promise<TaskRecord> {
  const res = await acct.json(`/v1/pdf/${op}`, body);
  if (res.status !== 202) throw new Error(`${op}: ${res.status} ${await res.text()}`);
  const { task_id } = await res.json<{ task_id: string }>();
  return waitTask(acct, task_id);
}

export async function waitTask(acct: TestAccount, taskId: string): Promise<TaskRecord> {
  for (let i = 0; i < 30; i++) {
    const rec = await (await acct.api(`/v1/tasks/${taskId}?wait=5`)).json<TaskRecord>();
    if (rec.status === 'done' || rec.status === 'failed') return rec;
  }
  throw new Error(`task ${taskId} did not end`);
}

export async function download(rec: TaskRecord): Promise<Uint8Array> {
  const res = await SELF.fetch(rec.download_url!);
  if (res.status !== 200) throw new Error(`download: ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

export async function balanceOf(acct: TestAccount): Promise<string> {
  return (await (await acct.api('/v1/api-keys/balance')).json<{ balance: string }>()).balance;
}

/** A PDF whose page i carries the text `MARK-<tag>-<i>` near its top-left corner. */
export async function markerPdf(pages: number, tag: string, opts: { size?: [number, number]; rotate?: number[] } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const [w, h] = opts.size ?? [300, 400];
    const page = doc.addPage([w, h]);
    page.drawText(`MARK-${tag}-${i + 1}`, { x: 20, y: h - 40, size: 14, font });
    if (opts.rotate?.[i]) page.setRotation(degrees(opts.rotate[i]!));
  }
  return doc.save();
}

/** Per page: the marker text found and the displayed rotation, read back with MuPDF. */
export async function inspect(bytes: Uint8Array): Promise<{ markers: string[]; rotations: number[]; sizes: [number, number][] }> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    const pdf = doc.asPDF()!;
    const markers: string[] = [];
    const rotations: number[] = [];
    const sizes: [number, number][] = [];
    for (let i = 0; i < doc.countPages(); i++) {
      const page = doc.loadPage(i);
      const text = page.toStructuredText('preserve-whitespace').asText();
      markers.push((text.match(/MARK-[A-Z]+-\d+/) ?? ['?'])[0]);
      const rot = pdf.findPage(i).getInheritable('Rotate');
      rotations.push(rot.isNumber() ? rot.asNumber() : 0);
      const [x0, y0, x1, y1] = page.getBounds();
      sizes.push([Math.round(x1 - x0), Math.round(y1 - y0)]);
      page.destroy();
    }
    return { markers, rotations, sizes };
  } finally {
    doc.destroy();
  }
}
