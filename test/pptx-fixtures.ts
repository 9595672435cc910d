/** A PPTX written here: a master with a title placeholder and a grey background, a layout, and `slides` (each a spTree body; `hidden` ones show="0"). */
import { strToU8, zipSync } from 'fflate';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="' + REL + '"';
/** Relationships; a target of a web address is external (TargetMode="External"). */
const rels = (list: [string, string, string][]) => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${list.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"${/^[a-z]+:/.test(target) ? ' TargetMode="External"' : ''}/>`).join('')}</Relationships>`;
const tree = (body: string) => `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${body}</p:spTree></p:cSld>`;
const EMU = 12_700;

/** A title placeholder at (x, y) w × h points on the master (its text 40 pt), left without a place on the slides. */
const MASTER_TITLE = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${36 * EMU}" y="${20 * EMU}"/><a:ext cx="${648 * EMU}" cy="${80 * EMU}"/></a:xfrm></p:spPr><p:txBody><a:bodyPr anchor="ctr"/><a:p><a:r><a:t>Master title</a:t></a:r></a:p></p:txBody></p:sp>`;

export const titleOnSlide = (text: string) => `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

/** A rectangle at (x, y) w × h points filled `fill`, with `text` in it at 20 pt. */
export const box = (x: number, y: number, w: number, h: number, fill: string, text = '') =>
  `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Box"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x * EMU}" y="${y * EMU}"/><a:ext cx="${w * EMU}" cy="${h * EMU}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="${fill}"/></a:solidFill></p:spPr>` +
  (text ? `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="2000"/><a:t>${text}</a:t></a:r></a:p></p:txBody>` : '') + '</p:sp>';

/**
 * `layoutPicture`: a PNG the layout's background (p:bg a:blipFill) stretches over its slides;
 * `deck`: the presentation's further relationships and the parts they name (ppt/tableStyles.xml,
 * ppt/fonts/font1.fntdata), and XML after its p:sldSz (p:embeddedFontLst).
 */
export function pptx(slides: { body: string; hidden?: boolean; rels?: [string, string, string][]; parts?: Record<string, string | Uint8Array> }[], size = { width: 720, height: 405 }, layoutPicture?: Uint8Array, deck: { rels?: [string, string, string][]; parts?: Record<string, string | Uint8Array>; presentation?: string } = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>'),
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'ppt/presentation.xml']])),
    'ppt/presentation.xml': strToU8(`<p:presentation ${P}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rM"/></p:sldMasterIdLst><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rS${i + 1}"/>`).join('')}</p:sldIdLst><p:sldSz cx="${size.width * EMU}" cy="${size.height * EMU}"/>${deck.presentation ?? ''}</p:presentation>`),
    'ppt/_rels/presentation.xml.rels': strToU8(rels([['rM', 'slideMaster', 'slideMasters/slideMaster1.xml'], ...slides.map((_, i): [string, string, string] => [`rS${i + 1}`, 'slide', `slides/slide${i + 1}.xml`]), ...(deck.rels ?? [])])),
    'ppt/slideMasters/slideMaster1.xml': strToU8(`<p:sldMaster ${P}><p:cSld><p:bg><p:bgPr><a:solidFill><a:srgbClr val="EEEEEE"/></a:solidFill></p:bgPr></p:bg><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${MASTER_TITLE}</p:spTree></p:cSld><p:txStyles><p:titleStyle><a:lvl1pPr algn="ctr"><a:defRPr sz="4000"/></a:lvl1pPr></p:titleStyle></p:txStyles></p:sldMaster>`),
    'ppt/slideMasters/_rels/slideMaster1.xml.rels': strToU8(rels([['rL', 'slideLayout', '../slideLayouts/slideLayout1.xml']])),
    'ppt/slideLayouts/slideLayout1.xml': strToU8(`<p:sldLayout ${P}>${layoutPicture ? tree('').replace('<p:cSld>', '<p:cSld><p:bg><p:bgPr><a:blipFill><a:blip r:embed="rP"/><a:stretch><a:fillRect/></a:stretch></a:blipFill></p:bgPr></p:bg>') : tree('')}</p:sldLayout>`),
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels': strToU8(rels([['rM', 'slideMaster', '../slideMasters/slideMaster1.xml'], ...(layoutPicture ? [['rP', 'image', '../media/image1.png'] as [string, string, string]] : [])])),
    ...(layoutPicture ? { 'ppt/media/image1.png': layoutPicture } : {}),
    ...Object.fromEntries(Object.entries(deck.parts ?? {}).map(([path, content]) => [path, typeof content === 'string' ? strToU8(content) : content])),
  };
  slides.forEach((s, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = strToU8(`<p:sld ${P}${s.hidden ? ' show="0"' : ''}>${tree(s.body)}</p:sld>`);
    files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = strToU8(rels([['rL', 'slideLayout', '../slideLayouts/slideLayout1.xml'], ...(s.rels ?? [])]));
    for (const [path, content] of Object.entries(s.parts ?? {})) files[path] = typeof content === 'string' ? strToU8(content) : content;
  });
  return zipSync(files);
}

/** A text box at (x, y) w × h points with `text` in `typeface` at `size` pt (bold, italic where asked), no fill. */
export const textIn = (x: number, y: number, w: number, h: number, typeface: string, text: string, size = 40, look: { bold?: boolean; italic?: boolean } = {}) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="4" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x * EMU}" y="${y * EMU}"/><a:ext cx="${w * EMU}" cy="${h * EMU}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr>` +
  `<p:txBody><a:bodyPr wrap="none" lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="${size * 100}"${look.bold ? ' b="1"' : ''}${look.italic ? ' i="1"' : ''}><a:latin typeface="${typeface}"/></a:rPr><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

/**
 * What a deck that embeds fonts adds to pptx()'s `deck`: the p:embeddedFontLst naming `typeface`'s
 * styles, their relationships (type font) and the parts (ppt/fonts/fontN.fntdata, or the name given).
 */
export function embeddedFonts(typeface: string, styles: Partial<Record<'regular' | 'bold' | 'italic' | 'boldItalic', { data: Uint8Array; part?: string }>>): { rels: [string, string, string][]; parts: Record<string, Uint8Array>; presentation: string } {
  const entries = Object.entries(styles).map(([style, { data, part }], i) => ({ style, data, part: part ?? `fonts/font${i + 1}.fntdata`, id: `rF${i + 1}` }));
  return {
    rels: entries.map((e): [string, string, string] => [e.id, 'font', e.part]),
    parts: Object.fromEntries(entries.map((e) => [`ppt/${e.part}`, e.data])),
    presentation: `<p:embeddedFontLst><p:embeddedFont><p:font typeface="${typeface}" pitchFamily="2" charset="0"/>${entries.map((e) => `<p:${e.style} r:id="${e.id}"/>`).join('')}</p:embeddedFont></p:embeddedFontLst>`,
  };
}
