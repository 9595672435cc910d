import type { FileKind } from '../../lib/detect';
import type { InputFile } from '../../contracts/operation';
import { newId } from '../../lib/ids';
import { iso } from '../../lib/time';
import { retryRead } from '../../lib/retry';

interface FileRow {
  id: string;
  account_id: string;
  filename: string;
  size: number;
  kind: FileKind;
  content_type: string;
  pages: number | null;
  encrypted: number;
  r2_key: string;
  expires_at: number;
}

export interface NewFile {
  accountId: string;
  filename: string;
  kind: FileKind;
  contentType: string;
  pages: number | null;
  encrypted: boolean;
  sourceTaskId?: string;
}

/** The upload record of DECISIONS.md. */
export function uploadRecord(f: { file_id: string; filename: string; size: number; content_type: string; pages: number | null; expires_at: number }) {
  return { file_id: f.file_id, filename: f.filename, size: f.size, content_type: f.content_type, pages: f.pages, expires_at: iso(f.expires_at) };
}

const toInput = (row: FileRow): InputFile & { expires_at: number } => ({
  file_id: row.id,
  filename: row.filename,
  size: row.size,
  kind: row.kind,
  content_type: row.content_type,
  pages: row.pages,
  encrypted: row.encrypted === 1,
  r2_key: row.r2_key,
  expires_at: row.expires_at,
});

/** Stores the bytes in R2 and the record in D1; the file lives `ttlSeconds`. */
export async function storeFile(
  env: { DB: D1Database; FILES: R2Bucket },
  file: NewFile,
  body: Uint8Array | ReadableStream,
  size: number,
  ttlSeconds: number,
) {
  const id = newId('file');
  const r2Key = `uploads/${file.accountId}/${id}`;
  const now = Date.now();
  const expiresAt = now + ttlSeconds * 1000;
  await env.FILES.put(r2Key, body, { httpMetadata: { contentType: file.contentType }, customMetadata: { expires_at: String(expiresAt) } });
  await env.DB.prepare(
    `INSERT INTO files (id, account_id, filename, size, kind, content_type, pages, encrypted, r2_key, source_task_id, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(id, file.accountId, file.filename, size, file.kind, file.contentType, file.pages, file.encrypted ? 1 : 0, r2Key, file.sourceTaskId ?? null, now, expiresAt)
    .run();
  return toInput({
    id,
    account_id: file.accountId,
    filename: file.filename,
    size,
    kind: file.kind,
    content_type: file.contentType,
    pages: file.pages,
    encrypted: file.encrypted ? 1 : 0,
    r2_key: r2Key,
    expires_at: expiresAt,
  });
}

/** The caller's live files by id; ids that are unknown, expired or another account's are missing from the map. */
export async function findLiveFiles(db: D1Database, accountId: string, ids: readonly string[]): Promise<Map<string, InputFile>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await retryRead(() =>
    db
      .prepare(`SELECT * FROM files WHERE account_id = ? AND deleted_at IS NULL AND expires_at > ? AND id IN (${unique.map(() => '?').join(',')})`)
      .bind(accountId, Date.now(), ...unique)
      .all<FileRow>(),
  );
  return new Map(rows.results.map((r) => [r.id, toInput(r)]));
}

/** Deletes files whose lifetime ended (cron); returns how many. */
export async function sweepExpiredFiles(env: { DB: D1Database; FILES: R2Bucket }, now = Date.now()): Promise<number> {
  const rows = await env.DB.prepare('SELECT id, r2_key FROM files WHERE deleted_at IS NULL AND expires_at <= ? LIMIT 500').bind(now).all<{ id: string; r2_key: string }>();
  if (rows.results.length === 0) return 0;
  await env.FILES.delete(rows.results.map((r) => r.r2_key));
  await env.DB.batch(rows.results.map((r) => env.DB.prepare('UPDATE files SET deleted_at = ? WHERE id = ?').bind(now, r.id)));
  return rows.results.length;
}
