/**
 * A worksheet's print settings from its page records: SETUP (paper, scale, fit to pages, order,
 * orientation, header and footer distances), the four margins, HCENTER/VCENTER, PRINTGRIDLINES,
 * PRINTHEADERS, the manual page breaks, HEADER and FOOTER (the same &-codes as XLSX's oddHeader) and
 * Excel 2007's HEADERFOOTER (first and even pages). Print area and titles come from the globals' NAMEs.
 */
import { u16 } from '../../../../codecs/binary';
import type { HeaderFooter, PrintSettings } from '../../model';
import { MAX_COLS, MAX_ROWS } from '../xlsx/cells';
import { paperOf } from '../paper';
import { f64, RT, type RecordCursor } from './records';
import { recordString, SegmentReader, type TextCodec } from './strings';

/** SETUP's option bits. */
const LEFT_TO_RIGHT = 0x0001; // pages over, then down
const PORTRAIT = 0x0002;
const NO_PRINTER_SETTINGS = 0x0004; // paper, scale and orientation are undefined
const NO_ORIENTATION = 0x0040; // orientation undefined: portrait
const NOTES = 0x0020; // comments print
const END_NOTES = 0x0200; // ... listed at the end of the sheet, not as displayed

interface Setup {
  paper: number;
  scale: number;
  fitWidth: number;
  fitHeight: number;
  options: number;
  header: number;
  footer: number;
}

/**
 * A sheet without SETUP (or whose SETUP leaves the printer's settings undefined) prints on
 * LibreOffice's default paper, A4, as the XLSX reader prints a sheet with no page setup; portrait
 * at 100%, headers and footers half an inch from the edge.
 */
const DEFAULT_SETUP: Setup = { paper: 9, scale: 100, fitWidth: 1, fitHeight: 1, options: PORTRAIT | NO_PRINTER_SETTINGS, header: 0.5, footer: 0.5 };

/** Inches that a margin may be (as the XLSX reader takes them: 0 to 50), else the default. */
const inches = (v: number | undefined, fallback: number) => (v !== undefined && v >= 0 && v < 50 ? v : fallback) * 72;

/** HEADERFOOTER's first-page and even-page headers and footers, and whether the sheet uses them. */
interface FirstAndEven {
  oddEven: boolean;
  first: boolean;
  evenHeader?: string;
  evenFooter?: string;
  firstHeader?: string;
  firstFooter?: string;
}

/** What a worksheet's page records say, gathered as the substream is read. */
export class PrintRecords {
  private setup = DEFAULT_SETUP;
  private readonly margins: { left?: number; right?: number; top?: number; bottom?: number } = {};
  private readonly flags = { centerHorizontally: false, centerVertically: false, gridLines: false, headings: false };
  private rowBreaks: number[] = [];
  private colBreaks: number[] = [];
  private header?: string;
  private footer?: string;
  private extra?: FirstAndEven;

  constructor(private readonly codec: TextCodec) {}

  /** Reads the cursor's record if it is a page record (true), else leaves it (false). */
  record(cursor: RecordCursor): boolean {
    const d = cursor.data;
    switch (cursor.type) {
      case RT.SETUP:
        if (d.length >= 34) this.setup = { paper: u16(d, 0), scale: u16(d, 2), fitWidth: u16(d, 6), fitHeight: u16(d, 8), options: u16(d, 10), header: f64(d, 16), footer: f64(d, 24) };
        return true;
      case RT.LEFTMARGIN:
        return (this.margins.left = f64(d, 0)), true;
      case RT.RIGHTMARGIN:
        return (this.margins.right = f64(d, 0)), true;
      case RT.TOPMARGIN:
        return (this.margins.top = f64(d, 0)), true;
      case RT.BOTTOMMARGIN:
        return (this.margins.bottom = f64(d, 0)), true;
      case RT.HCENTER:
        return (this.flags.centerHorizontally = u16(d, 0) !== 0), true;
      case RT.VCENTER:
        return (this.flags.centerVertically = u16(d, 0) !== 0), true;
      case RT.PRINTGRIDLINES:
        return (this.flags.gridLines = u16(d, 0) !== 0), true;
      case RT.PRINTHEADERS:
        return (this.flags.headings = u16(d, 0) !== 0), true;
      case RT.HORIZONTALPAGEBREAKS:
        return (this.rowBreaks = this.breaks(d, MAX_ROWS)), true;
      case RT.VERTICALPAGEBREAKS:
        return (this.colBreaks = this.breaks(d, MAX_COLS)), true;
      case RT.HEADER:
        return (this.header = this.text(d)), true;
      case RT.FOOTER:
        return (this.footer = this.text(d)), true;
      case RT.HEADERFOOTER:
        if (this.codec.biff === 8 && !this.extra) this.extra = headerFooterRecord(d, this.codec);
        return true;
      default:
        return false;
    }
  }

  /** A break list: its count, then each break's row (or column), in BIFF8 with the span it runs over. */
  private breaks(d: Uint8Array, max: number): number[] {
    const size = this.codec.biff === 8 ? 6 : 2;
    const count = Math.min(u16(d, 0), Math.floor((d.length - 2) / size), 1026);
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = u16(d, 2 + i * size);
      if (at > 0 && at < max) out.push(at);
    }
    return out.sort((a, b) => a - b);
  }

  /** HEADER or FOOTER: empty when the record is; BIFF8 counts its characters in two bytes, BIFF5 in one. */
  private text(d: Uint8Array): string | undefined {
    return d.length ? recordString(d, 0, this.codec.biff === 8 ? 2 : 1, this.codec) : undefined;
  }

  /** The settings, the sheet's WSBOOL having said whether it fits to pages. */
  settings(fitToPage: boolean): PrintSettings {
    const s = this.setup;
    const printer = !(s.options & NO_PRINTER_SETTINGS);
    const landscape = printer && !(s.options & NO_ORIENTATION) && !(s.options & PORTRAIT);
    const scale = printer ? s.scale : 100;
    const m = this.margins;
    const e = this.extra;
    return {
      orientation: landscape ? 'landscape' : 'portrait',
      paper: paperOf(printer ? s.paper : DEFAULT_SETUP.paper),
      // BIFF's defaults for a missing margin record: 0.75" at the sides, 1" at top and bottom.
      margins: { left: inches(m.left, 0.75), right: inches(m.right, 0.75), top: inches(m.top, 1), bottom: inches(m.bottom, 1), header: inches(s.header, 0.5), footer: inches(s.footer, 0.5) },
      scale: scale >= 10 && scale <= 400 ? scale : 100,
      ...(fitToPage ? { fitTo: { width: s.fitWidth, height: s.fitHeight } } : {}),
      pageOrder: s.options & LEFT_TO_RIGHT ? 'overThenDown' : 'downThenOver',
      ...(this.flags.centerHorizontally ? { centerHorizontally: true } : {}),
      ...(this.flags.centerVertically ? { centerVertically: true } : {}),
      ...(this.flags.gridLines ? { gridLines: true } : {}),
      ...(this.flags.headings ? { headings: true } : {}),
      rowBreaks: this.rowBreaks,
      colBreaks: this.colBreaks,
      header: headerFooter(this.header, e?.oddEven ? e.evenHeader : undefined, e?.first ? e.firstHeader : undefined),
      footer: headerFooter(this.footer, e?.oddEven ? e.evenFooter : undefined, e?.first ? e.firstFooter : undefined),
      ...(s.options & NOTES ? { comments: s.options & END_NOTES ? 'atEnd' : 'asDisplayed' } : {}),
    };
  }
}

function headerFooter(odd?: string, even?: string, first?: string): HeaderFooter | undefined {
  return odd || even || first ? { odd: odd ?? '', ...(even ? { even } : {}), ...(first ? { first } : {}) } : undefined;
}

/**
 * HEADERFOOTER: a future-record header (12 bytes) and a view's GUID (16), the different-odd-even
 * and different-first flags, four character counts, then each string whose count is not zero.
 */
function headerFooterRecord(d: Uint8Array, codec: TextCodec): FirstAndEven {
  const flags = u16(d, 28);
  const counts = [30, 32, 34, 36].map((at) => u16(d, at));
  const r = new SegmentReader([d], 38);
  const [evenHeader, evenFooter, firstHeader, firstFooter] = counts.map((n) => (n ? r.string(2, codec) : undefined));
  return { oddEven: (flags & 1) !== 0, first: (flags & 2) !== 0, evenHeader, evenFooter, firstHeader, firstFooter };
}
