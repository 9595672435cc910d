/** One HTTP error type; `onError` turns it into an RFC 9457 problem+json body. */

export type ErrorCode =
  | 'unauthorized'
  | 'insufficient_balance'
  | 'key_limit_exhausted'
  | 'not_found'
  | 'method_not_allowed'
  | 'task_not_finished'
  | 'result_deleted'
  | 'payload_too_large'
  | 'validation_error'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_use'
  | 'rate_limited'
  | 'internal_error';

/** Exhaustive code → status map: a code can never be answered with another status. */
export const STATUS_OF: Record<ErrorCode, number> = {
  unauthorized: 401,
  insufficient_balance: 402,
  key_limit_exhausted: 402,
  not_found: 404,
  method_not_allowed: 405,
  task_not_finished: 409,
  result_deleted: 410,
  payload_too_large: 413,
  validation_error: 422,
  idempotency_key_reused: 422,
  idempotency_key_in_use: 409,
  rate_limited: 429,
  internal_error: 500,
};

const TITLES: Record<number, string> = {
  401: 'Unauthorized',
  402: 'Payment Required',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export interface FieldProblem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.status = STATUS_OF[code];
  }
}

/** A 422 for one field: the common case of request-time checks. */
export function invalid(path: string, message: string): ApiError {
  return new ApiError('validation_error', `1 problem in the request: ${message}`, [{ path, message }]);
}

export function invalidMany(errors: FieldProblem[]): ApiError {
  const detail = errors.length === 1 ? `1 problem in the request: ${errors[0]!.message}` : `${errors.length} problems in the request body`;
  return new ApiError('validation_error', detail, errors);
}

export function problemBody(err: ApiError): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: 'about:blank',
    title: TITLES[err.status] ?? 'Error',
    status: err.status,
    code: err.code,
    detail: err.detail,
  };
  if (err.errors) body.errors = err.errors;
  return body;
}

export function problemResponse(err: ApiError, requestId?: string): Response {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json', ...(err.headers ?? {}) };
  if (requestId) headers['x-request-id'] = requestId;
  return new Response(JSON.stringify(problemBody(err)), { status: err.status, headers });
}
