import type { TaskObject } from './tasks/task-object';
import type { RateLimiter } from '../api/middleware/rate-limiter-object';
import type { OcrReading, PdfInspection, TaskEngine } from '../contracts/rpc';

/** Bindings and variables of the Worker (wrangler.toml). */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  TASKS: Queue<unknown>;
  /** The queue of the document conversions (engines 'office' and 'html': workers/office/, workers/html/). */
  CONVERT_TASKS: Queue<unknown>;
  /** A message per OCR page to recognise (read by the OCR Worker, workers/ocr/). */
  OCR_TASKS: Queue<unknown>;
  /** The engine Workers (service bindings, RPC): the API Worker runs no engine itself (contracts/rpc.ts). */
  PDF_ENGINE: TaskEngine;
  /** Office documents → PDF (Word now; spreadsheets and slides to come). */
  OFFICE_ENGINE: TaskEngine;
  HTML_ENGINE: TaskEngine;
  OCR_ENGINE: OcrReading;
  PDF_INSPECTOR: PdfInspection;
  TASK: DurableObjectNamespace<TaskObject>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  ADMIN_TOKEN?: string;
  FILE_TTL_SECONDS?: string;
  RESULT_TTL_SECONDS?: string;
  DOWNLOAD_URL_TTL_SECONDS?: string;
  FREE_CLEANUP_SECONDS?: string;
  WEBHOOK_RETRY_DELAYS?: string;
  ALLOW_INSECURE_URLS?: string;
  /** "true": anyone may open an account from the dashboard's sign-up page (free plan). */
  SIGNUP_ENABLED?: string;
  RATE_LIMIT_PER_SECOND?: string;
  RATE_LIMIT_BURST?: string;
  TASK_WATCHDOG_SECONDS?: string;
  MAX_TASK_ATTEMPTS?: string;
  /**
   * The service's public address (`https://pdf.example.com`): every absolute link it gives out
   * (download_url, webhook download_url) starts with it. Unset or empty: the origin the request came to.
   */
  PUBLIC_BASE_URL?: string;
}

export interface Config {
  fileTtlSeconds: number;
  resultTtlSeconds: number;
  downloadUrlTtlSeconds: number;
  freeCleanupSeconds: number;
  webhookRetryDelays: number[];
  allowInsecureUrls: boolean;
  signupEnabled: boolean;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  taskWatchdogSeconds: number;
  maxTaskAttempts: number;
}

function num(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Reads the configurable defaults of DECISIONS.md from the environment. */
export function config(env: Env): Config {
  return {
    fileTtlSeconds: num(env.FILE_TTL_SECONDS, 3600),
    resultTtlSeconds: num(env.RESULT_TTL_SECONDS, 3600),
    downloadUrlTtlSeconds: num(env.DOWNLOAD_URL_TTL_SECONDS, 3600),
    freeCleanupSeconds: num(env.FREE_CLEANUP_SECONDS, 900),
    webhookRetryDelays: (env.WEBHOOK_RETRY_DELAYS ?? '10,30,90')
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isFinite(n) && n >= 0),
    allowInsecureUrls: env.ALLOW_INSECURE_URLS === 'true' || env.ALLOW_INSECURE_URLS === '1',
    signupEnabled: env.SIGNUP_ENABLED === 'true' || env.SIGNUP_ENABLED === '1',
    rateLimitPerSecond: num(env.RATE_LIMIT_PER_SECOND, 20),
    rateLimitBurst: num(env.RATE_LIMIT_BURST, 40),
    taskWatchdogSeconds: num(env.TASK_WATCHDOG_SECONDS, 900),
    maxTaskAttempts: num(env.MAX_TASK_ATTEMPTS, 3),
  };
}

/**
 * The base of the absolute links the service gives out: PUBLIC_BASE_URL when it is set (an http(s)
 * URL, trailing slashes dropped), else `fallback` (the origin the request came to). The Host header a
 * client sends never decides a link once PUBLIC_BASE_URL is set.
 */
export function publicBaseUrl(env: Pick<Env, 'PUBLIC_BASE_URL'>, fallback: string): string {
  const configured = env.PUBLIC_BASE_URL?.trim();
  if (!configured) return fallback;
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    return fallback;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fallback;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
