/** RFC 3339 UTC with Z, whole seconds (DECISIONS: Conventions). */
export function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export const isoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : iso(ms));
