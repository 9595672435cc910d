/**
 * What a graphic frame (p:graphicFrame) shows besides tables and charts, as members for the shared
 * shape-tree reader: a SmartArt diagram as the drawing PowerPoint saved of it (the diagramDrawing
 * part's dsp:spTree, placed over the frame, as LibreOffice prints it rather than laying the diagram
 * out again), and an embedded (OLE) object as its preview picture (the p:pic in its p:oleObj, or in
 * older files the VML shape its spid names).
 */
import { attr, child, descendant, elements, type XmlElement } from '../../../codecs/xml';
import type { Package } from '../../office/package';
import { PART_BUDGET } from './part-budget';

export const el = (name: string, attrs: Record<string, string>, kids: XmlElement['children'] = []): XmlElement => ({ name, prefix: '', attrs, children: kids });

/** Members to read, and the part their pictures are related from. */
export interface FrameDrawing {
  part: string;
  member: XmlElement;
}

/** Shapes a saved SmartArt drawing keeps at most. */
const DIAGRAM_SHAPES_MAX = 1_000;

export function frameDrawing(pkg: Package, part: string, frame: XmlElement): FrameDrawing | undefined {
  const data = child(child(frame, 'graphic'), 'graphicData');
  const uri = attr(data, 'uri') ?? '';
  if (!data) return undefined;
  if (uri.endsWith('/diagram')) return diagramDrawing(pkg, part, frame, data);
  if (uri.endsWith('/ole')) return olePreview(pkg, part, frame, data);
  return undefined;
}

/** The target of the relationship `id` of `part`, when it is inside the package. */
function target(pkg: Package, part: string, id: string | undefined): string | undefined {
  const rel = id ? pkg.rels(part).get(id) : undefined;
  return rel && !rel.external ? rel.target : undefined;
}

/** The saved drawing (its part found through the data part's dsp:dataModelExt) as one group over the frame: its shapes are placed from the frame's corner. */
function diagramDrawing(pkg: Package, part: string, frame: XmlElement, data: XmlElement): FrameDrawing | undefined {
  const dataPart = target(pkg, part, attr(child(data, 'relIds'), 'r:dm'));
  const drawingPart = dataPart && target(pkg, part, attr(descendant(pkg.xml(dataPart, undefined, PART_BUDGET), 'dataModelExt'), 'relId'));
  const tree = drawingPart ? child(pkg.xml(drawingPart, undefined, PART_BUDGET), 'spTree') : undefined;
  const xfrm = child(frame, 'xfrm');
  const ext = child(xfrm, 'ext');
  if (!drawingPart || !tree || !ext) return undefined;
  const space = el('xfrm', {}, [child(xfrm, 'off') ?? el('off', { x: '0', y: '0' }), ext, el('chOff', { x: '0', y: '0' }), el('chExt', ext.attrs)]);
  const members = elements(tree).filter((m) => m.name === 'sp' || m.name === 'grpSp' || m.name === 'cxnSp' || m.name === 'pic').slice(0, DIAGRAM_SHAPES_MAX).flatMap(textApart);
  return { part: drawingPart, member: el('grpSp', {}, [el('grpSpPr', {}, [space]), ...members]) };
}

/**
 * A diagram shape whose text has a box of its own (dsp:txXfrm: a caption beside a circle, text
 * inset from an arrow) as the shape without its text and a frameless text box where the text goes.
 */
function textApart(sp: XmlElement): XmlElement[] {
  const txXfrm = child(sp, 'txXfrm');
  const txBody = child(sp, 'txBody');
  if (sp.name !== 'sp' || !txXfrm || !txBody) return [sp];
  const shape = { ...sp, children: sp.children.filter((c) => typeof c === 'string' || c.name !== 'txBody') };
  const spPr = el('spPr', {}, [{ ...txXfrm, name: 'xfrm' }, el('prstGeom', { prst: 'rect' }), el('noFill', {}), el('ln', {}, [el('noFill', {})])]);
  const style = child(sp, 'style');
  return [shape, el('sp', {}, [spPr, ...(style ? [style] : []), txBody])];
}

/** The object's preview: the p:pic PowerPoint 2010+ writes in the fallback p:oleObj, else the picture of the VML shape its spid names. */
function olePreview(pkg: Package, part: string, frame: XmlElement, data: XmlElement): FrameDrawing | undefined {
  const pic = descendant(data, 'pic');
  const xfrm = child(frame, 'xfrm');
  if (pic) {
    // The frame's place where the picture gives none of its own.
    const spPr = child(pic, 'spPr');
    if (child(spPr, 'xfrm') || !xfrm) return { part, member: pic };
    return { part, member: { ...pic, children: [...pic.children.filter((c) => typeof c === 'string' || c.name !== 'spPr'), el('spPr', {}, [xfrm, ...(spPr ? elements(spPr) : [])])] } };
  }
  const spid = attr(descendant(data, 'oleObj'), 'spid');
  const vmlPart = [...pkg.rels(part).values()].find((r) => !r.external && r.type.endsWith('/vmlDrawing'))?.target;
  if (!spid || !vmlPart || !xfrm) return undefined;
  const shape = elements(pkg.xml(vmlPart, undefined, PART_BUDGET)).find((s) => attr(s, 'id') === spid || attr(s, 'o:spid') === spid);
  const relId = attr(child(shape, 'imagedata'), 'o:relid') ?? attr(child(shape, 'imagedata'), 'r:id');
  if (!relId) return undefined;
  const blipFill = el('blipFill', {}, [el('blip', { 'r:embed': relId }), el('stretch', {}, [el('fillRect', {})])]);
  return { part: vmlPart, member: el('pic', {}, [blipFill, el('spPr', {}, [xfrm])]) };
}
