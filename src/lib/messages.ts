/**
 * The one error map of request validation: every 422 says what the field must be, from the schema
 * itself ("angle must be one of 90, 180, 270", "file_id must be a string, not a number",
 * "font_size must be a whole number between 6 and 72", "pages must be a list of page numbers or
 * \"all\""). Messages a schema sets on itself ("page numbers start at 1") win; this map fills in
 * zod's generic ones ("Invalid input").
 */
import type { z } from 'zod';

type AnySchema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string };

const defOf = (s: AnySchema): Def => s._zod.def as unknown as Def;
const isSchema = (x: unknown): x is AnySchema => !!x && typeof x === 'object' && '_zod' in x && typeof (x as AnySchema)._zod.def?.type === 'string' && !('check' in (x as AnySchema)._zod.def);

/** The message for a finished issue (one with its full path), or undefined to keep zod's own. */
export function messageFor(root: AnySchema, iss: z.core.$ZodRawIssue, path: string): string | undefined {
  if (iss.code === 'invalid_type' && iss.input === undefined) return `${path} is required`;
  if (!['invalid_type', 'invalid_value', 'invalid_union', 'too_small', 'too_big'].includes(iss.code!)) return undefined;
  const target = isSchema(iss.inst) && iss.code !== 'too_small' && iss.code !== 'too_big' ? iss.inst : schemaAt(root, iss.path ?? []);
  if (!target) return undefined;
  const got = iss.code === 'invalid_type' ? `, not ${kindOf(iss.input)}` : '';
  return `${path} must be ${describe(target)}${got}`;
}

/** What a value must be, in words. A schema's own .describe() text is used as it is. */
export function describe(s: AnySchema): string {
  const own = (s as { description?: string }).description;
  if (own) return own;
  const wrapped = unwrapped(s);
  if (wrapped) return describe(wrapped);
  const def = defOf(s);
  switch (def.type) {
    case 'literal':
      return oneOf((def['values'] as unknown[]).map((v) => JSON.stringify(v)));
    case 'enum':
      return oneOf(Object.values(def['entries'] as Record<string, unknown>).map((v) => JSON.stringify(v)));
    case 'union': {
      const options = def['options'] as AnySchema[];
      if (options.every((o) => defOf(o).type === 'literal')) return oneOf(options.flatMap((o) => (defOf(o)['values'] as unknown[]).map((v) => JSON.stringify(v))));
      return options.map(describe).join(' or ');
    }
    case 'string':
      return `a string${range(numberOr((s as unknown as { minLength?: number }).minLength), numberOr((s as unknown as { maxLength?: number }).maxLength), 'characters')}`;
    case 'number': {
      const n = s as unknown as { minValue?: number; maxValue?: number; format?: string; isInt?: boolean };
      const whole = n.isInt || n.format === 'safeint' || n.format === 'int32';
      return `${whole ? 'a whole number' : 'a number'}${bounds(numberOr(n.minValue), numberOr(n.maxValue))}`;
    }
    case 'boolean':
      return 'true or false';
    case 'array': {
      const { min, max } = lengthChecks(def);
      const count = range(min, max, 'entries').replace(/^ of /, ' ');
      return `a list of ${plural(describe(def['element'] as AnySchema))}${count ? ` (${count.trim()})` : ''}`;
    }
    case 'tuple':
      return `a list of ${(def['items'] as AnySchema[]).length}: [${(def['items'] as AnySchema[]).map(describe).join(', ')}]`;
    case 'object':
      return 'an object';
    default:
      return `a valid ${def.type}`;
  }
}

/** The schema a path leads to from the root (objects, intersections, arrays, tuples, unions, wrappers). */
export function schemaAt(root: AnySchema, path: readonly PropertyKey[]): AnySchema | undefined {
  let s: AnySchema | undefined = root;
  for (const key of path) {
    s = s && childOf(s, key);
    if (!s) return undefined;
  }
  return s;
}

function childOf(s: AnySchema, key: PropertyKey): AnySchema | undefined {
  const wrapped = unwrapped(s);
  if (wrapped) return childOf(wrapped, key);
  const def = defOf(s);
  switch (def.type) {
    case 'object':
      return (def['shape'] as Record<string, AnySchema>)[String(key)];
    case 'intersection':
      return childOf(def['left'] as AnySchema, key) ?? childOf(def['right'] as AnySchema, key);
    case 'array':
      return typeof key === 'number' ? (def['element'] as AnySchema) : undefined;
    case 'tuple':
      return typeof key === 'number' ? (def['items'] as AnySchema[])[key] : undefined;
    case 'union':
      for (const option of def['options'] as AnySchema[]) {
        const found = childOf(option, key);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The schema a wrapper (optional, default, pipe…) stands for; undefined for any other. */
function unwrapped(s: AnySchema): AnySchema | undefined {
  const def = defOf(s);
  if (WRAPPERS.has(def.type)) return def['innerType'] as AnySchema;
  return def.type === 'pipe' ? (def['in'] as AnySchema) : undefined;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch']);

/** An array's .min()/.max() as its checks hold them (zod fills `_zod.bag` only once it has parsed). */
function lengthChecks(def: Def): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  for (const check of (def['checks'] as { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[] | undefined) ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length') out.min = c.minimum;
    if (c.check === 'max_length') out.max = c.maximum;
  }
  return out;
}

const oneOf = (values: string[]) => (values.length === 1 ? values[0]! : `one of ${values.join(', ')}`);
/** Bounds zod leaves at the safe-integer limits say nothing: only real ones are shown. */
const numberOr = (x: number | undefined) => (typeof x === 'number' && Number.isFinite(x) && Math.abs(x) < 1e15 ? x : undefined);

function bounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` between ${min} and ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

function range(min: number | undefined, max: number | undefined, unit: string): string {
  if (min !== undefined && max !== undefined) return min === max ? ` of ${min} ${unit}` : ` of ${min} to ${max} ${unit}`;
  if (min !== undefined && min > 0) return ` of at least ${min} ${unit}`;
  if (max !== undefined) return ` of at most ${max} ${unit}`;
  return '';
}

/** "a page number" → "page numbers", "a whole number of at least 1" → "whole numbers of at least 1". */
function plural(one: string): string {
  const m = /^an? (\S+)( (?:number|string|pair|list|object)\b)?(.*)$/.exec(one);
  if (!m) return one;
  const noun = m[2] ? `${m[1]}${m[2]}s` : `${m[1]}s`;
  return `${noun}${m[3]}`;
}

function kindOf(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'a list';
  if (typeof x === 'string') return 'a string';
  if (typeof x === 'number') return Number.isInteger(x) ? 'a whole number' : 'a number';
  if (typeof x === 'boolean') return x ? 'true' : 'false';
  if (typeof x === 'object') return 'an object';
  return typeof x;
}
