import { describe, expect, it } from 'vitest';
import { boundaryOf, parseMultipart, readBody } from '../src/lib/multipart';

const enc = new TextEncoder();

/** The exact bytes a real client sends: let the runtime's own FormData serialiser build them. */
async function encoded(form: FormData): Promise<{ body: Uint8Array; boundary: string }> {
  const req = new Request('https://x.test', { method: 'POST', body: form });
  return { body: new Uint8Array(await req.arrayBuffer()), boundary: boundaryOf(req.headers.get('content-type')!)! };
}

describe('multipart', () => {
  it('finds the file part with its name, UTF-8 filename and exact bytes (CRLFs inside the data kept)', async () => {
    const data = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff, 0x0d, 0x0a]);
    const form = new FormData();
    form.append('note', 'hello');
    form.append('file', new Blob([data]), 'Отчёт.pdf');
    const { body, boundary } = await encoded(form);
    const parts = parseMultipart(body, boundary);
    expect(parts.map((p) => [p.name, p.filename])).toEqual([
      ['note', null],
      ['file', 'Отчёт.pdf'],
    ]);
    expect(parts[1]!.data).toEqual(data);
    expect(new TextDecoder().decode(parts[0]!.data)).toBe('hello');
    // The part is a view into the body: no copy of the upload.
    expect(parts[1]!.data.buffer).toBe(body.buffer);
  });

  it('reads filename* (RFC 5987) and quoted names', () => {
    const body = enc.encode(
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"; filename*=UTF-8\'\'%D0%B0.pdf\r\n\r\nX\r\n--b--\r\n',
    );
    expect(parseMultipart(body, 'b')[0]).toMatchObject({ name: 'file', filename: 'а.pdf' });
    expect(boundaryOf('multipart/form-data; boundary="abc def"')).toBe('abc def');
  });

  it('refuses a body without its closing boundary', () => {
    expect(() => parseMultipart(enc.encode('--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nXYZ'), 'b')).toThrow(/closing boundary/);
    expect(() => parseMultipart(enc.encode('no boundary here'), 'b')).toThrow(/no multipart boundary/);
  });

  it('stops reading a body past the limit', async () => {
    const stream = new Blob([new Uint8Array(5000)]).stream();
    expect(await readBody(stream, null, 4000)).toBeNull();
    expect((await readBody(new Blob([new Uint8Array(3000)]).stream(), 3000, 4000))!.length).toBe(3000);
  });
});
