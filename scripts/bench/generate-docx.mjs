// A large Word document for the benchmark: `pictures` paragraphs of text, each followed by an
// inline photo-like JPEG (generate.mjs's noisy gradients), zipped as a DOCX of about `targetBytes`
// (photos stored, XML deflated, as Word writes them). Cached under bench-out/ like the PDFs.
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { jpegFor, rng } from './generate.mjs';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';
const EMU_PER_PT = 12700;

function pictureXml(i, widthPt, heightPt) {
  const cx = Math.round(widthPt * EMU_PER_PT);
  const cy = Math.round(heightPt * EMU_PER_PT);
  return (
    `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${i + 1}" name="Photo ${i + 1}"/>` +
    `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="${i + 1}" name="photo${i + 1}.jpg"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="rIdImg${i + 1}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
  );
}

export function generateDocx(path, { pictures, targetBytes, seed = 7 }) {
  const next = rng(seed);
  const perPicture = targetBytes / pictures;
  // About 0.77 bytes per pixel at quality 75 for these noisy gradients (measured: 22.5 MB for 40 photos at 1.6).
  const width = Math.round(Math.sqrt((perPicture / 0.77) * (4 / 3)));
  const height = Math.round((width * 3) / 4);
  const files = {};
  let body = '';
  let rels = '';
  for (let i = 0; i < pictures; i++) {
    files[`word/media/photo${i + 1}.jpg`] = [jpegFor(i, width, height, next), { level: 0 }];
    rels += `<Relationship Id="rIdImg${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/photo${i + 1}.jpg"/>`;
    body += `<w:p><w:r><w:t>Photo ${i + 1} of ${pictures}: site survey, facade and roof, taken in daylight.</w:t></w:r></w:p>${pictureXml(i, 450, 337.5)}`;
  }
  files['[Content_Types].xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="jpg" ContentType="image/jpeg"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  files['_rels/.rels'] = strToU8('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  files['word/_rels/document.xml.rels'] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`);
  files['word/document.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="708" w:footer="708"/></w:sectPr></w:body></w:document>`,
  );
  const bytes = zipSync(files);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, bytes);
  renameSync(`${path}.tmp`, path);
  return { path, bytes: bytes.length, pictures };
}

export function cachedDocx(dir, name, opts, log = () => {}) {
  const path = `${dir}/${name}.docx`;
  if (existsSync(path)) return { path, bytes: statSync(path).size, pictures: opts.pictures, cached: true };
  log(`generating ${path} (${opts.pictures} photos, ~${(opts.targetBytes / 1e6).toFixed(1)} MB)...`);
  return { ...generateDocx(path, opts), cached: false };
}
