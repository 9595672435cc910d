/**
 * A task's result as its downloaders meet it: the download tokens the task gives out (live until
 * they expire, then kept as retired so that they answer 410, not 404), and what a download may
 * take (the free plan gets one, then the result is removed). These read and change the task's
 * state only: TaskObject (task-object.ts) loads the state, calls them, and saves it.
 */
import { base64url } from '../../lib/ids';
import type { DownloadOutcome, TaskState } from './types';

/** Tokens that stopped working kept (newest last) so that they answer 410, not 404; at most this many. */
export const RETIRED_TOKENS_KEPT = 64;

/** Moves tokens out of the live set into the retired list (expired, or their result removed). */
export function retireTokens(state: TaskState, tokens: string[]): void {
  if (!tokens.length) return;
  for (const t of tokens) delete state.tokens[t];
  state.retired_tokens = [...(state.retired_tokens ?? []).filter((t) => !tokens.includes(t)), ...tokens].slice(-RETIRED_TOKENS_KEPT);
}

/**
 * A download token valid for a while yet: the current one, or a new one (valid `ttlMs`) when it
 * is half spent. `issued`: the state changed and is to be saved.
 */
export function currentToken(state: TaskState, now: number, ttlMs: number): { token: string; issued: boolean } {
  retireTokens(state, Object.keys(state.tokens).filter((t) => state.tokens[t]! <= now));
  const token = Object.entries(state.tokens).find(([, exp]) => exp - now > ttlMs / 2)?.[0];
  if (token) return { token, issued: false };
  const fresh = `${state.task_id}.${base64url(crypto.getRandomValues(new Uint8Array(24)))}`;
  state.tokens[fresh] = now + ttlMs;
  return { token: fresh, issued: true };
}

/** Whether a free-plan task's one download is spent (its result then reads unavailable). */
export const freeDownloadSpent = (state: TaskState): boolean => state.plan === 'free' && state.downloads >= 1;

/**
 * A download: by token (no key) or by the owner's key (token null). The free plan gets one, then
 * the result is removed `freeCleanupMs` later (the cleanup deadline) and later downloads get 410.
 * The state changes (and is to be saved) only when the outcome is ok.
 */
export function takeDownload(state: TaskState, token: string | null, freeCleanupMs: number): DownloadOutcome {
  if (token !== null && !(token in state.tokens)) {
    // A link this task once gave out is 410 (DECISIONS: result expired or removed); a made-up one stays 404.
    if (!state.retired_tokens?.includes(token)) return { ok: false, code: 'not_found' };
    return { ok: false, code: state.result_available ? 'expired_link' : 'result_deleted' };
  }
  if (token !== null && state.tokens[token]! <= Date.now()) return { ok: false, code: state.result_available ? 'expired_link' : 'result_deleted' };
  if (state.status !== 'done' && state.status !== 'failed') return { ok: false, code: 'task_not_finished' };
  if (state.status === 'failed') return { ok: false, code: 'task_failed' };
  if (!state.result_available || !state.result) return { ok: false, code: 'result_deleted' };
  if (freeDownloadSpent(state)) return { ok: false, code: 'result_deleted' };
  state.downloads += 1;
  if (state.plan === 'free') {
    // The one download is spent: the record says so at once (result_available false, no download_url),
    // and the bytes are removed by the cleanup deadline (this download streams them meanwhile).
    state.result_available = false;
    state.deadlines.cleanup = Date.now() + freeCleanupMs;
  }
  return { ok: true, result: state.result };
}
