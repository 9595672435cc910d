/** Issue 40: bidi controls and other invisible or control characters never stay in a file name. */
import { describe, expect, it } from 'vitest';
import { SELF } from 'cloudflare:test';
import { cleanFilename, contentDisposition, resultName } from '../src/lib/names';
import { markerPdf, newAccount, runOp, uploadOk } from './helpers';

const SPOOF = [0x202e, 0x202a, 0x202b, 0x202c, 0x202d, 0x200e, 0x200f, 0x2066, 0x2067, 0x2068, 0x2069, 0x061c, 0x200b, 0xfeff, 0x2028, 0x85, 0x9b, 0x07, 0x1b, 0x7f].map((c) => String.fromCodePoint(c));
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u;

describe('file names keep no bidi or control characters', () => {
  it('result names: each bidi control, C0/C1 control and format character is removed', () => {
    expect(resultName('invoice\u202Efdp.exe', 'pdf')).toBe('invoicefdp_service.pdf');
    for (const ch of SPOOF) {
      const name = resultName(`re${ch}port.pdf`, 'pdf');
      expect(name, `U+${ch.codePointAt(0)!.toString(16)}`).toBe('report_service.pdf');
    }
    expect(resultName('\u202E\u2066', 'pdf')).toBe('document_service.pdf');
    // ZWNJ (Persian) and ZWJ (emoji) are letters' business, not spoofing: kept.
    expect(resultName('می\u200Cخواهم.docx', 'pdf')).toBe('می\u200Cخواهم_service.pdf');
    expect(resultName('👩\u200D💻.pdf', 'pdf')).toBe('👩\u200D💻_service.pdf');
  });

  it('upload names and Content-Disposition are cleaned the same way', () => {
    expect(cleanFilename('C:\\tmp\\a\u202Egpj.exe\u0085')).toBe('agpj.exe');
    expect(cleanFilename('\u200F\u2067')).toBe('document');
    const cd = contentDisposition('a\u202Eb.pdf');
    expect(cd).toBe(`attachment; filename="ab.pdf"; filename*=UTF-8''ab.pdf`);
  });

  it('through the API: the upload record, the task record and the download carry the cleaned name', async () => {
    const acct = await newAccount();
    const pdf = await markerPdf(1, 'A');
    const up = await uploadOk(acct, pdf, 'scan\u202Efdp.exe\u2066.pdf');
    expect((up as unknown as { filename: string }).filename).toBe('scanfdp.exe.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id, angle: 90 });
    expect(rec.status).toBe('done');
    expect(rec.filename).toBe('scanfdp.exe_service.pdf');
    expect(rec.filename).not.toMatch(INVISIBLE);
    const res = await SELF.fetch(rec.download_url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).not.toMatch(/%E2%80%AE|%E2%81%A6/);
    expect(res.headers.get('content-disposition')).toContain('filename="scanfdp.exe_service.pdf"');
    await res.arrayBuffer();
  });
});
