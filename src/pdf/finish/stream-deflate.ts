import type * as Mupdf from 'mupdf';
import { deflateSync } from 'node:zlib';

/**
 * Deflates a stream object still unfiltered, in place, with the runtime's native zlib: left raw,
 * MuPDF's save deflates it in WASM, several times slower (diploma.docx's interlaced screenshot,
 * 2.7 MB of samples: 38 ms that way, 26 ms so; kwsymphony.doc's page content and ICC profile: 48
 * ms of deflate_slow). Anything else (not a stream, already filtered) is left as it is.
 */
export function deflateUnfilteredStream(pdf: Mupdf.PDFDocument, obj: Mupdf.PDFObject, level: number): void {
  if (!obj.isStream() || !obj.get('Filter').isNull()) return;
  const raw = obj.readRawStream();
  try {
    obj.writeRawStream(deflateSync(raw.asUint8Array(), { level }));
  } finally {
    raw.destroy();
  }
  obj.put('Filter', pdf.newName('FlateDecode'));
}
