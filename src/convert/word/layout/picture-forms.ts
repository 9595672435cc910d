/**
 * Forms that stand where the page device drew a placeholder (picture-passthrough.ts replaceIn):
 * a cropped picture's, and a shape's own operators'.
 */
import type * as Mupdf from 'mupdf';
import type { PictureCrop } from '../model/index';
import { FORM_UNITS, type ShapeContent } from './shape-content';

/**
 * A cropped picture: a form drawn in the unit square the placeholder was (the box on the page),
 * clipped to it, showing the picture scaled so that the part kept fills it. In PDF's image space
 * (y up) the bottom crop is at y = 0.
 */
export function croppedForm(pdf: Mupdf.PDFDocument, image: Mupdf.PDFObject, crop: PictureCrop): Mupdf.PDFObject {
  const sx = 1 / (1 - crop.left - crop.right);
  const sy = 1 / (1 - crop.top - crop.bottom);
  const n = (v: number) => String(Math.round(v * 1e5) / 1e5);
  const xobjects = pdf.newDictionary();
  xobjects.put('I', image);
  const form = formDictionary(pdf, [0, 0, 1, 1], xobjects);
  return pdf.addStream(`q 0 0 1 1 re W n ${n(sx)} 0 0 ${n(sy)} ${n(-crop.left * sx)} ${n(-crop.bottom * sy)} cm /I Do Q`, form);
}

/**
 * The form that draws a shape's operators, written in hundredths of a point of page space, in
 * place of a placeholder drawn over the unit square at the page's origin. MuPDF's writer places an
 * image's unit square flipped (its rows run top down: matrix [1 0 0 -1 0 1] before the drawing
 * matrix, identity here), so the form's matrix scales to points and undoes that flip.
 */
export function contentForm(pdf: Mupdf.PDFDocument, shape: ShapeContent): Mupdf.PDFObject {
  const form = formDictionary(pdf, shape.bbox);
  form.put('Matrix', numbers(pdf, [1 / FORM_UNITS, 0, 0, -1 / FORM_UNITS, 0, 1]));
  // Left unfiltered: deflated with the document's other streams before the save (pdf-finish.ts).
  return pdf.addStream(shape.content, form);
}

/** A form XObject's dictionary: its box, and the pictures it draws by name (none: empty resources). */
function formDictionary(pdf: Mupdf.PDFDocument, bbox: number[], xobjects?: Mupdf.PDFObject): Mupdf.PDFObject {
  const resources = pdf.newDictionary();
  if (xobjects) resources.put('XObject', xobjects);
  const form = pdf.newDictionary();
  form.put('Type', pdf.newName('XObject'));
  form.put('Subtype', pdf.newName('Form'));
  form.put('BBox', numbers(pdf, bbox));
  form.put('Resources', resources);
  return form;
}

function numbers(pdf: Mupdf.PDFDocument, values: number[]): Mupdf.PDFObject {
  const a = pdf.newArray();
  for (const v of values) a.push(v);
  return a;
}
