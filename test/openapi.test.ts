/** The served OpenAPI document: what the Redocly lint (npm run lint:openapi) and clients rely on. */
import { describe, expect, it } from 'vitest';
import { SELF } from 'cloudflare:test';
import { BASE } from './helpers';

interface Op {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  responses: Record<string, unknown>;
  requestBody?: { content: Record<string, { schema: { allOf?: { properties?: Record<string, { maxItems?: number }> }[]; properties?: Record<string, { maxItems?: number }> } }> };
}

describe('GET /v1/openapi.json', () => {
  it('names its own origin as the server, gives every operation an id and a 4xx answer, and bounds every list', async () => {
    const doc = await (await SELF.fetch(`${BASE}/v1/openapi.json`)).json<{ servers: { url: string }[]; info: { license?: unknown }; paths: Record<string, Record<string, Op>> }>();
    expect(doc.servers[0]!.url).toBe(BASE);
    expect(doc.info.license).toBeDefined();
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ at: `${method} ${path}`, op })));
    const ids = ops.map((o) => o.op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { at, op } of ops) expect(Object.keys(op.responses).some((s) => s.startsWith('4')), at).toBe(true);

    const extract = doc.paths['/v1/pdf/extract-pages']!['post']!;
    expect(extract.parameters?.some((p) => p.name === 'Idempotency-Key' && p.in === 'header')).toBe(true);
    const body = JSON.stringify(extract.requestBody);
    expect(body).toContain('"maxItems":10000');
  });
});
