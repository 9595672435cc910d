// Decompression bombs for the poison suite, written with node:zlib as streams (nothing of the
// inflated size is ever held): a DOCX whose word/document.xml inflates to ~1 GB, a PDF whose page
// content stream inflates to ~1 or ~2 GB, a real 30000×30000 PNG (2.7 GB of pixels in ~3 MB).
import { createDeflate, createDeflateRaw, crc32 } from 'node:zlib';
import { once } from 'node:events';
import { buildPdf } from './generate-pdf.mjs';
import { packageParts } from './generate-docx.mjs';

/** Deflates `total` bytes made of `prefix`, `fill` repeated and `suffix`; returns { data, crc, size }. */
export async function deflatedFill({ prefix = Buffer.alloc(0), fillByte = 0, total, suffix = Buffer.alloc(0), raw = false, level = 9 }) {
  const z = raw ? createDeflateRaw({ level }) : createDeflate({ level });
  const out = [];
  z.on('data', (d) => out.push(d));
  const ended = once(z, 'end');
  let crc = 0;
  const write = async (buf) => {
    crc = crc32(buf, crc);
    if (!z.write(buf)) await once(z, 'drain');
  };
  await write(prefix);
  const chunk = Buffer.alloc(1 << 22, fillByte);
  let left = total - prefix.length - suffix.length;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    await write(n === chunk.length ? chunk : chunk.subarray(0, n));
    left -= n;
  }
  await write(suffix);
  z.end();
  await ended;
  return { data: Buffer.concat(out), crc: crc >>> 0, size: total };
}

/** A ZIP of { name: Buffer } stored entries plus one pre-deflated entry { name, data, crc, size }. */
export function zipWith(stored, bomb) {
  const locals = [];
  const centrals = [];
  let at = 0;
  const entries = [...Object.entries(stored).map(([name, data]) => ({ name, data: Buffer.from(data), method: 0, crc: crc32(Buffer.from(data)) >>> 0, size: data.length })), { ...bomb, method: 8 }];
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(0x0800, 6); // UTF-8 names
    head.writeUInt16LE(e.method, 8);
    head.writeUInt32LE(e.crc, 14);
    head.writeUInt32LE(e.data.length, 18);
    head.writeUInt32LE(e.size, 22);
    head.writeUInt16LE(name.length, 26);
    locals.push(head, name, e.data);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE(20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(0x0800, 8);
    cen.writeUInt16LE(e.method, 10);
    cen.writeUInt32LE(e.crc, 16);
    cen.writeUInt32LE(e.data.length, 20);
    cen.writeUInt32LE(e.size, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE(at, 42);
    centrals.push(cen, name);
    at += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...locals, cd, end]);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/**
 * A DOCX whose word/document.xml inflates to `total` bytes: `fill` 'zeros' (NUL bytes after the
 * body's start, as a zip bomb is usually made) or 'spaces' (well-formed XML: whitespace between
 * the body's paragraphs).
 */
export async function zipBombDocx(total, fill = 'zeros') {
  const prefix = Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body><w:p><w:r><w:t>zip bomb</w:t></w:r></w:p>`);
  const suffix = Buffer.from('<w:p><w:r><w:t>after the bomb</w:t></w:r></w:p></w:body></w:document>');
  const bomb = await deflatedFill({ prefix, suffix, total, fillByte: fill === 'zeros' ? 0 : 0x20, raw: true });
  return zipWith(packageParts(), { name: 'word/document.xml', ...bomb });
}

/** A one-page PDF whose content stream inflates to `total` bytes of spaces after one line of text. */
export async function deflateBombPdf(total) {
  const prefix = Buffer.from('BT /F1 24 Tf 50 700 Td (deflate bomb) Tj ET\n');
  const { data } = await deflatedFill({ prefix, total, fillByte: 0x20 });
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    { dict: '/Filter /FlateDecode', stream: data },
  ]);
}

/** A real, valid side × side RGB PNG (black; each row filter 0): side² × 3 bytes of pixels deflated. */
export async function hugeRealPng(side) {
  const rowLen = 1 + side * 3;
  const z = createDeflate({ level: 6 });
  const out = [];
  z.on('data', (d) => out.push(d));
  const ended = once(z, 'end');
  const rows = Math.max(1, Math.floor((1 << 22) / rowLen));
  const block = Buffer.alloc(rows * rowLen);
  for (let y = 0; y < side; y += rows) {
    const n = Math.min(rows, side - y);
    if (!z.write(block.subarray(0, n * rowLen))) await once(z, 'drain');
  }
  z.end();
  await ended;
  const idat = Buffer.concat(out);
  const chunk = (type, data) => {
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}
