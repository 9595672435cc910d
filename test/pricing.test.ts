import { describe, expect, it } from 'vitest';
import { OCR_MAX_PAGES, PAGE_RATES, ocrPageLimit, sizeOrPages, sizeUnits, toJpgPrice } from '../src/service/billing/pricing';
import { formatRub, UNIT_PRICE_KOPECKS } from '../src/lib/money';
import { priceList } from '../src/api/routes/account';

const file = (size: number, pages: number | null = 1) => ({ size, pages });
const rub = (units: number) => formatRub(units * UNIT_PRICE_KOPECKS);

describe('price rules (SPEC Pricing rules, DECISIONS Pricing)', () => {
  it('1.25 per started 10,000,000 bytes, at least one unit', () => {
    expect(sizeUnits([file(1)])).toBe(1);
    expect(sizeUnits([file(10_000_000)])).toBe(1);
    expect(sizeUnits([file(10_000_001)])).toBe(2);
    expect(sizeUnits([file(25_000_000)])).toBe(3);
    expect(rub(sizeUnits([file(25_000_000)]))).toBe('3.75');
  });

  it('merge, jpg-to-pdf and photo-to-pdf pay for the summed size', () => {
    expect(sizeUnits([file(6_000_000), file(5_000_000)])).toBe(2);
    expect(sizeUnits(Array.from({ length: 10 }, () => file(1_000_000)))).toBe(1);
  });

  it('page-priced operations charge the larger of size units and page units', () => {
    const word = sizeOrPages(PAGE_RATES.pdf_to_word);
    expect(word([file(1000, 50)], {})).toBe(1);
    expect(word([file(1000, 51)], {})).toBe(2);
    expect(word([file(35_000_000, 60)], {})).toBe(4); // size wins
    const ocr = sizeOrPages(PAGE_RATES.ocr_pdf);
    expect(ocr([file(1000, 100)], {})).toBe(10);
    expect(ocr([file(1000, 11)], {})).toBe(2);
    expect(word([file(1000, null)], {})).toBe(1); // pages unknown (encrypted): size only
  });

  it('to-jpg: 50 pages a unit, 25 at 300 dpi, only selected pages paid', () => {
    expect(toJpgPrice([file(1000, 120)], {})).toBe(3);
    expect(toJpgPrice([file(1000, 120)], { dpi: 300 })).toBe(5);
    expect(toJpgPrice([file(1000, 120)], { dpi: 300, pages: [1, 2, 3] })).toBe(1);
    expect(toJpgPrice([file(1000, 120)], { pages: Array.from({ length: 51 }, (_, i) => i + 1) })).toBe(2);
  });

  it('OCR refuses more than 100 pages at request time', () => {
    expect(ocrPageLimit({ pages: OCR_MAX_PAGES })).toEqual([]);
    expect(ocrPageLimit({ pages: 101 })[0]).toMatchObject({ path: 'file_id' });
    expect(ocrPageLimit({ pages: null })).toEqual([]);
  });

  it('the price list names each unit as SPEC does: page-priced operations say so', () => {
    const list = priceList();
    const unit = (path: string) => list.operations.find((o) => o.path === `/v1/pdf/${path}`)?.unit;
    expect([unit('ocr'), unit('to-jpg'), unit('merge'), unit('rotate')]).toEqual(['10 MB or 10 pages', '10 MB or 50 pages (300 dpi: 25)', '10 MB of summed files', '10 MB']);
  });
});
