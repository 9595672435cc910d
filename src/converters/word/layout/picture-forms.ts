/**
 * Forms that stand where the page device drew a placeholder (picture-passthrough.ts replaceIn):
 * a cropped picture's, and a shape's own operators'.
 */
import type * as Mupdf from 'mupdf';
import { deflateSync } from 'node:zlib';
import type { PictureCrop } from '../model';
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
  const bbox = pdf.newArray();
  for (const v of [0, 0, 1, 1]) bbox.push(v);
  const xobjects = pdf.newDictionary();
  xobjects.put('I', image);
  const resources = pdf.newDictionary();
  resources.put('XObject', xobjects);
  const form = pdf.newDictionary();
  form.put('Type', pdf.newName('XObject'));
  form.put('Subtype', pdf.newName('Form'));
  form.put('BBox', bbox);
  form.put('Resources', resources);
  return pdf.addStream(`q 0 0 1 1 re W n ${n(sx)} 0 0 ${n(sy)} ${n(-crop.left * sx)} ${n(-crop.bottom * sy)} cm /I Do Q`, form);
}

/**
 * The form that draws a shape's operators, written in hundredths of a point of page space, in
 * place of a placeholder drawn over the unit square at the page's origin. MuPDF's writer places an
 * image's unit square flipped (its rows run top down: matrix [1 0 0 -1 0 1] before the drawing
 * matrix, identity here), so the form's matrix scales to points and undoes that flip.
 */
export function contentForm(pdf: Mupdf.PDFDocument, shape: ShapeContent): Mupdf.PDFObject {
  const array = (values: number[]) => {
    const a = pdf.newArray();
    for (const v of values) a.push(v);
    return a;
  };
  const form = pdf.newDictionary();
  form.put('Type', pdf.newName('XObject'));
  form.put('Subtype', pdf.newName('Form'));
  form.put('BBox', array(shape.bbox));
  form.put('Matrix', array([1 / FORM_UNITS, 0, 0, -1 / FORM_UNITS, 0, 1]));
  form.put('Resources', pdf.newDictionary());
  form.put('Filter', pdf.newName('FlateDecode'));
  return pdf.addRawStream(deflateSync(shape.content, { level: FORM_DEFLATE_LEVEL }), form);
}

/** As the save's other streams (pdf-finish.ts). */
const FORM_DEFLATE_LEVEL = 4;
