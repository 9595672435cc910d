import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { detectKind } from '../src/lib/detect';
import { cleanFilename, contentDisposition, resultName } from '../src/lib/names';
import { markerPdf } from './helpers';
import { makePng } from './fixtures';

const bytes = (s: string) => new Uint8Array(Array.from(s, (c) => c.charCodeAt(0)));
const concat = (...parts: (Uint8Array | number[])[]) => {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : new Uint8Array(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) (out.set(a, at), (at += a.length));
  return out;
};
const utf16 = (s: string) => new Uint8Array(Array.from(s).flatMap((c) => [c.charCodeAt(0), 0]));
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ole = (stream: string) => concat(OLE, new Uint8Array(504), utf16(stream), new Uint8Array(64));
const zip = (...names: string[]) => zipSync(Object.fromEntries(names.map((n) => [n, bytes('<x/>')])));

describe('detectKind', () => {
  it('PDF: the %PDF- header anywhere in the first 1024 bytes', async () => {
    expect(detectKind(await markerPdf(1, 'A'))).toBe('pdf');
    expect(detectKind(bytes(`${' '.repeat(1019)}%PDF-1.7`))).toBe('pdf');
    expect(detectKind(bytes(`${' '.repeat(1020)}%PDF-1.7`))).toBeNull();
  });

  it('images by their signatures', () => {
    expect(detectKind(makePng())).toBe('png');
    expect(detectKind(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('jpg');
    expect(detectKind(concat(bytes('RIFF'), [0x24, 0, 0, 0], bytes('WEBPVP8 ')))).toBe('webp');
    expect(detectKind(concat(bytes('RIFF'), [0x24, 0, 0, 0], bytes('WAVEfmt ')))).toBeNull();
    expect(detectKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a]))).toBeNull();
    expect(detectKind(bytes('GIF89a'))).toBeNull();
  });

  it('OLE compound files by their stream names', () => {
    expect(detectKind(ole('WordDocument'))).toBe('doc');
    expect(detectKind(ole('Workbook'))).toBe('xls');
    expect(detectKind(ole('Book'))).toBe('xls');
    expect(detectKind(ole('PowerPoint Document'))).toBe('ppt');
    // A workbook holding a slide show as an embedded object is still a workbook.
    expect(detectKind(concat(ole('Workbook'), utf16('PowerPoint Document')))).toBe('xls');
    // ASCII names do not count: OLE stores them as UTF-16LE.
    expect(detectKind(concat(OLE, bytes('WordDocument')))).toBeNull();
  });

  it('OOXML by [Content_Types].xml and the part folders', () => {
    expect(detectKind(zip('[Content_Types].xml', 'word/document.xml'))).toBe('docx');
    expect(detectKind(zip('[Content_Types].xml', 'xl/workbook.xml'))).toBe('xlsx');
    expect(detectKind(zip('[Content_Types].xml', 'ppt/presentation.xml'))).toBe('pptx');
    expect(detectKind(zip('word/document.xml'))).toBeNull();
    const odf = (mime: string) => zipSync({ mimetype: [bytes(mime), { level: 0 }], 'content.xml': bytes('<x/>') });
    expect(detectKind(odf('application/vnd.oasis.opendocument.spreadsheet'))).toBe('ods');
    expect(detectKind(odf('application/vnd.oasis.opendocument.presentation'))).toBe('odp');
    expect(detectKind(odf('application/vnd.oasis.opendocument.graphics'))).toBeNull();
    expect(detectKind(zip('[Content_Types].xml', 'content.xml'))).toBeNull();
    expect(detectKind(concat([0x50, 0x4b, 0x03, 0x04], new Uint8Array(30)))).toBeNull();
  });

  it('a cut-off OOXML file whose entries use data descriptors is still told by its local headers', () => {
    const local = (name: string, data: string, descriptor: boolean) => {
      const n = bytes(name);
      const head = new Uint8Array(30);
      const v = new DataView(head.buffer);
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(6, descriptor ? 0x0808 : 0, true);
      v.setUint32(18, descriptor ? 0 : data.length, true);
      v.setUint32(22, descriptor ? 0 : data.length, true);
      v.setUint16(26, n.length, true);
      return concat(head, n, bytes(data), descriptor ? concat([0x50, 0x4b, 7, 8], new Uint8Array(12)) : new Uint8Array(0));
    };
    // No central directory: the download stopped before it.
    const cut = concat(local('ppt/slides/slide1.xml', '<p:sld/>', true), local('[Content_Types].xml', '<Types/>', true), local('ppt/presentation.xml', '<p:presentation/>', true));
    expect(detectKind(cut)).toBe('pptx');
    // Cut before [Content_Types].xml, which some writers put last: the part folders still tell.
    expect(detectKind(local('ppt/theme/theme1.xml', '<a:theme/>', true))).toBe('pptx');
  });

  it('a PDF header after junk within the first 1024 bytes wins over an HTML-looking start (real files do this)', () => {
    expect(detectKind(bytes('<html><head><meta http-equiv="refresh" content="0"></head></html>\n%PDF-1.4\n'))).toBe('pdf');
  });

  it('HTML by its opening', () => {
    expect(detectKind(bytes('<!DOCTYPE html><html><body>x</body></html>'))).toBe('html');
    expect(detectKind(bytes('  \n<HTML lang="ru">'))).toBe('html');
    expect(detectKind(concat([0xef, 0xbb, 0xbf], bytes('<html>')))).toBe('html');
    expect(detectKind(bytes('<!-- saved --><head><title>t</title></head>'))).toBe('html');
    expect(detectKind(bytes('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'))).toBe('html');
    expect(detectKind(bytes('<body>only a body</body>'))).toBe('html');
  });

  it('anything else is null', () => {
    expect(detectKind(new Uint8Array(0))).toBeNull();
    expect(detectKind(bytes('just some text'))).toBeNull();
    expect(detectKind(bytes('<?xml version="1.0"?><svg/>'))).toBeNull();
    expect(detectKind(bytes('{"html": "<p>"}'))).toBeNull();
    expect(detectKind(new Uint8Array([0x1f, 0x8b, 8, 0]))).toBeNull();
  });
});

describe('resultName', () => {
  it('adds _service before the extension of the result', () => {
    expect(resultName('report.pdf', 'pdf')).toBe('report_service.pdf');
    expect(resultName('scan.pdf', 'zip')).toBe('scan_service.zip');
    expect(resultName('archive.tar.gz', 'pdf')).toBe('archive.tar_service.pdf');
    expect(resultName('noext', 'pdf')).toBe('noext_service.pdf');
    expect(resultName('Отчёт.pdf', 'pdf')).toBe('Отчёт_service.pdf');
  });

  it('adds no second suffix and names nameless files', () => {
    expect(resultName('report_service.pdf', 'pdf')).toBe('report_service.pdf');
    expect(resultName('report_service.pdf', 'zip')).toBe('report_service.zip');
    expect(resultName('report_service_service.pdf', 'pdf')).toBe('report_service_service.pdf');
    expect(resultName('.pdf', 'pdf')).toBe('.pdf_service.pdf');
    expect(resultName('', 'pdf')).toBe('document_service.pdf');
  });
});

describe('contentDisposition', () => {
  it('plain ASCII names appear twice, unchanged', () => {
    expect(contentDisposition('report_service.pdf')).toBe(`attachment; filename="report_service.pdf"; filename*=UTF-8''report_service.pdf`);
  });

  it('non-ASCII names get an underscore fallback and a percent-encoded UTF-8 name', () => {
    expect(contentDisposition('Отчёт_service.pdf')).toBe(
      `attachment; filename="______service.pdf"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82_service.pdf`,
    );
    expect(contentDisposition('café menu.pdf')).toBe(`attachment; filename="caf_ menu.pdf"; filename*=UTF-8''caf%C3%A9%20menu.pdf`);
  });

  it('quotes and backslashes never break the quoted string; RFC 5987 specials are encoded', () => {
    expect(contentDisposition('say "hi"\\x.pdf')).toBe(`attachment; filename="say _hi__x.pdf"; filename*=UTF-8''say%20%22hi%22%5Cx.pdf`);
    expect(contentDisposition("it's (1)*.pdf")).toBe(`attachment; filename="it's (1)*.pdf"; filename*=UTF-8''it%27s%20%281%29%2A.pdf`);
    expect(contentDisposition('a;b,c.pdf')).toBe(`attachment; filename="a;b,c.pdf"; filename*=UTF-8''a%3Bb%2Cc.pdf`);
  });
});

describe('cleanFilename', () => {
  it('keeps the last path segment without control characters', () => {
    expect(cleanFilename('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(cleanFilename('../../etc/passwd')).toBe('passwd');
    expect(cleanFilename(' a\u0000b\r\n.pdf ')).toBe('ab.pdf');
    expect(cleanFilename('')).toBe('document');
    expect(cleanFilename(null)).toBe('document');
    expect(cleanFilename('x'.repeat(300))).toHaveLength(255);
  });
});
