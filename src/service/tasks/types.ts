import type { InputFile } from '../../contracts/operation';
import type { Plan } from '../storage/accounts';

export type TaskStatus = 'queued' | 'processing' | 'done' | 'failed';

/** What the API hands the task at creation: enough to run it without reading D1 again. */
export interface TaskSpec {
  task_id: string;
  account_id: string;
  key_id: string;
  plan: Plan;
  op_path: string;
  operation_type: string;
  inputs: InputFile[];
  /** The validated parameters as JSON (plain text keeps the RPC types simple). */
  params_json: string;
  webhook_url: string | null;
  /** The service's own origin as the client reached it: webhook download links start with it unless PUBLIC_BASE_URL is set. */
  base_url: string;
  charge_kopecks: number;
  charge_units: number;
  included: boolean;
}

export interface TaskResult {
  r2_key: string;
  filename: string;
  content_type: string;
  size: number;
}

export interface TaskState extends TaskSpec {
  status: TaskStatus;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  progress: { done: number; total: number };
  attempts: number;
  /**
   * The step the next queue message runs: an operation too long for one invocation (to-jpg of
   * many pages) runs as steps 0, 1, …, each its own message, and the task's attempts count per step.
   */
  step?: number;
  /** During a fanned-out step: the parts (OCR pages) not reported done yet, and how many there were. */
  fan?: { pending: number[]; total: number };
  refunded: boolean;
  error_message: string | null;
  result: TaskResult | null;
  result_expires_at: number | null;
  result_available: boolean;
  downloads: number;
  /** Download tokens issued for this task's result and when each stops working. */
  tokens: Record<string, number>;
  /** Tokens once issued that no longer work (expired, or the result removed): they answer 410, not 404. */
  retired_tokens?: string[];
  /** When the result's bytes were removed from R2 (expiry, or the free plan's cleanup after its download). */
  result_removed_at?: number;
  /** Moments the alarm must act at: watchdog, result expiry, free-plan cleanup. */
  deadlines: { watchdog: number | null; result_expiry: number | null; cleanup: number | null };
  webhook: import('./webhook').WebhookOutbox | null;
}

/** The slice of state the API turns into the public task record. */
export interface TaskView {
  state: TaskState;
  token: string | null;
}

export type DownloadOutcome =
  | { ok: true; result: TaskResult }
  | { ok: false; code: 'not_found' | 'result_deleted' | 'task_not_finished' | 'task_failed' | 'expired_link' };
