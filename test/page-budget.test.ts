/**
 * Pages are measured before MuPDF draws or reads them (src/pdf/page-budget.ts): tiny PDFs that
 * would keep the engine busy for minutes, or inflate to gigabytes, fail at once naming the limit,
 * refunded; ordinary heavy pages pass.
 */
import { describe, expect, it } from 'vitest';
import { zlibSync } from 'fflate';
import { balanceOf, newAccount, runOp, uploadOk } from './helpers';
import { checkPageBudget } from '../src/pdf/page-budget';
import { withPdf } from '../src/pdf/pdf';

const enc = new TextEncoder();

/** A one-page PDF whose content is `content` (Flate), with extra objects from number 5 on. */
function rawPdf(content: Uint8Array, opts: { size?: [number, number]; resources?: string; objects?: Uint8Array[] } = {}): Uint8Array {
  const [w, h] = opts.size ?? [612, 792];
  const packed = zlibSync(content, { level: 9 });
  const objects: Uint8Array[] = [
    enc.encode('<< /Type /Catalog /Pages 2 0 R >>'),
    enc.encode('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    enc.encode(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Contents 4 0 R /Resources ${opts.resources ?? '<<>>'} >>`),
    concat(enc.encode(`<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`), packed, enc.encode('\nendstream')),
    ...(opts.objects ?? []),
  ];
  const parts: Uint8Array[] = [enc.encode('%PDF-1.7\n')];
  const offsets: number[] = [];
  let size = parts[0]!.length;
  objects.forEach((o, i) => {
    offsets.push(size);
    const obj = concat(enc.encode(`${i + 1} 0 obj\n`), o, enc.encode('\nendobj\n'));
    parts.push(obj);
    size += obj.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  parts.push(enc.encode(xref));
  return concat(...parts);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

const repeat = (s: string, n: number) => enc.encode(s.repeat(n));

/** 30 forms, each drawing the next twice: 2^30 calls from 5.8 KB. */
function nestedForms(depth: number): Uint8Array {
  const forms = Array.from({ length: depth }, (_, i) => {
    const last = i === depth - 1;
    const body = last ? '0 0 m 10 10 l S BT /H 12 Tf (x) Tj ET' : `/F${i + 1} Do /F${i + 1} Do`;
    const res = last ? '<< /Font << /H << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>' : `<< /XObject << /F${i + 1} ${6 + i} 0 R >> >>`;
    return enc.encode(`<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources ${res} /Length ${body.length} >>\nstream\n${body}\nendstream`);
  });
  return rawPdf(enc.encode('/F0 Do'), { resources: '<< /XObject << /F0 5 0 R >> >>', objects: forms });
}

/** A page showing `shown` glyphs of a Type 3 font whose one glyph ('a') is `glyph` (a content stream). */
function type3Pdf(glyph: string, shown: number): Uint8Array {
  const font = enc.encode('<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 6 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] >>');
  const proc = concat(enc.encode(`<< /Length ${glyph.length} >>\nstream\n`), enc.encode(glyph), enc.encode('\nendstream'));
  return rawPdf(enc.encode(`BT /T3 12 Tf 10 700 Td (${'a'.repeat(shown)}) Tj ET`), { resources: '<< /Font << /T3 5 0 R >> >>', objects: [font, proc] });
}

describe('page budgets', () => {
  it('measures ordinary pages without refusing them: 20,000 short strokes, a form drawn 500 times', async () => {
    const strokes = rawPdf(enc.encode(Array.from({ length: 20_000 }, (_, i) => `${i % 600} ${(i * 7) % 780} m ${(i % 600) + 5} ${((i * 7) % 780) + 5} l S`).join('\n')));
    const cost = await withPdf(strokes, (doc) => checkPageBudget(doc, 0));
    expect(cost!.operators).toBe(60_000); // m, l and S for each
    expect(cost!.pageAreas).toBeCloseTo((20_000 * 25) / (612 * 792), 3); // each a 5 × 5 box
    const form = enc.encode('<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Length 9 >>\nstream\n0 0 m 5 5 l S\nendstream');
    const calls = rawPdf(repeat('/X Do\n', 500), { resources: '<< /XObject << /X 5 0 R >> >>', objects: [form] });
    const formCost = await withPdf(calls, (doc) => checkPageBudget(doc, 0));
    expect(formCost!.formCalls).toBe(500);
    expect(formCost!.operators).toBe(500 + 500 * 3);
  });

  it('100,000 full-page strokes (4.8 KB) for to-jpg: refused before drawing, naming the limit, refunded', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, rawPdf(repeat('0 0 m 612 792 l S\n', 100_000)), 'strokes.pdf');
    const started = Date.now();
    const rec = await runOp(acct, 'to-jpg', { file_id: up.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.error_message).toMatch(/^Page 1 paints its own area [\d,]+ times over or more; at most 2,000 times are drawn for one page/);
    expect(Date.now() - started).toBeLessThan(20_000); // it drew for 134 s before
    expect(rec.refunded).toBe(true);
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('30 nested forms each drawn twice for to-txt: refused naming the form calls', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, nestedForms(30), 'forms.pdf');
    const rec = await runOp(acct, 'to-txt', { file_id: up.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.error_message).toMatch(/^Page 1 draws its forms \(XObjects\) [\d,]+ times or more; at most 100,000 are drawn for one page/);
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('a content stream that inflates past 24 MB is refused without inflating it all; a 14,400 pt page is refused by its pixels', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const bomb = await uploadOk(acct, rawPdf(new Uint8Array(40_000_000).fill(32)), 'bomb.pdf');
    const rec = await runOp(acct, 'to-txt', { file_id: bomb.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.error_message).toMatch(/content streams unpack to more than 24 MB/);
    const big = await uploadOk(acct, rawPdf(enc.encode('0 0 m 10 10 l S'), { size: [14_400, 14_400] }), 'big.pdf');
    const rec2 = await runOp(acct, 'to-jpg', { file_id: big.file_id });
    expect(rec2.status).toBe('failed');
    expect(rec2.error_message).toMatch(/page 1 is 14400 × 14400 pt: 30000 × 30000 pixels at 150 dpi; at most 150 million/i);
    expect(await balanceOf(acct)).toBe('5.00');
  });
});

describe('Type 3 glyphs are content streams: each one shown is costed', () => {
  it('a glyph of 20,000 strokes shown 2,000 times (40 million operators, 100 KB) is refused before drawing; a plain Type 3 font passes', async () => {
    const heavy = type3Pdf('1000 0 0 0 1000 1000 d1\n' + '0 0 m 1000 1000 l S\n'.repeat(20_000), 2_000);
    await expect(withPdf(heavy, (doc) => checkPageBudget(doc, 0))).rejects.toThrow(/runs [\d,]+ drawing operators or more; at most 2,000,000/);
    const plain = type3Pdf('1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f', 100);
    const cost = await withPdf(plain, (doc) => checkPageBudget(doc, 0));
    expect(cost!.operators).toBe(5 + 100 * 3); // BT Tf Td Tj ET, then d1 re f for each glyph
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, heavy, 'type3.pdf');
    const rec = await runOp(acct, 'to-jpg', { file_id: up.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.error_message).toMatch(/^Page 1 runs [\d,]+ drawing operators or more/);
    expect(rec.refunded).toBe(true);
    expect(await balanceOf(acct)).toBe('5.00');
    const ok = await uploadOk(acct, plain, 'plain-type3.pdf');
    expect((await runOp(acct, 'to-jpg', { file_id: ok.file_id })).status).toBe('done');
  });
});

describe('page budgets, measured directly', () => {
  it('100,000 full-page strokes and 30 nested forms are over budget', async () => {
    const strokes = rawPdf(repeat('0 0 m 612 792 l S\n', 100_000));
    await expect(withPdf(strokes, (doc) => checkPageBudget(doc, 0))).rejects.toThrow(/paints its own area/);
    await expect(withPdf(nestedForms(30), (doc) => checkPageBudget(doc, 0, false))).rejects.toThrow(/draws its forms/);
  });
});
