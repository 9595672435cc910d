import type { Context } from 'hono';
import { z } from 'zod';
import { ApiError, invalidMany, type FieldProblem } from './errors';
import { messageFor } from './messages';

/** `pages[1]`, `ranges[0][1]`, `file_ids[3]` from a zod issue path. */
export function pathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), '') || '(body)';
}

/** The issues as field problems; their messages come from parseOr422's error map (messages.ts). */
export function zodProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message }));
}

/** A JSON object body, or 422 saying what is wrong with it. */
export async function jsonObjectBody(c: Context): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await c.req.text();
  } catch {
    throw new ApiError('validation_error', 'The request body could not be read.', [{ path: '(body)', message: 'unreadable body' }]);
  }
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError('validation_error', 'The request body is not valid JSON: send a JSON object with Content-Type: application/json.', [
      { path: '(body)', message: 'malformed JSON' },
    ]);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('validation_error', 'The request body must be a JSON object.', [{ path: '(body)', message: 'expected a JSON object' }]);
  }
  return body as Record<string, unknown>;
}

export function parseOr422<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  // One error map for every request: messages that say what each field must be (messages.ts).
  const result = schema.safeParse(body, { error: (iss) => (iss.path ? messageFor(schema, iss, pathOf(iss.path)) : undefined) });
  if (!result.success) throw invalidMany(zodProblems(result.error));
  return result.data;
}
