/** An ODP written here: a master with a grey background, a red rule and a title placeholder; `odp(pages)` around draw:page elements (`page`, `title`, `NOTES`). */
import { strToU8, zipSync } from 'fflate';

const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"';

/** styles.xml: a 10 × 5.625 in page layout, a master with a grey background, a red rule of its own and a title placeholder; the outline styles. */
const STYLES = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS}>
<office:styles>
  <draw:gradient draw:name="G1" draw:style="linear" draw:start-color="#000000" draw:end-color="#ffffff" draw:angle="0" draw:border="20%"/>
  <draw:gradient draw:name="G2" draw:style="radial" draw:start-color="#ff0000" draw:end-color="#0000ff" draw:end-intensity="50%"/>
  <draw:opacity draw:name="O1" draw:style="linear" draw:start="20%" draw:end="60%"/>
  <style:default-style style:family="graphic"><style:graphic-properties svg:stroke-color="#3465a4" draw:fill-color="#729fcf"/><style:text-properties fo:font-size="18pt" style:font-name="Liberation Sans"/></style:default-style>
  <style:style style:name="M-title" style:family="presentation"><style:graphic-properties draw:stroke="none" draw:fill="none"/><style:text-properties fo:font-size="40pt"/></style:style>
  <style:style style:name="M-outline1" style:family="presentation"><style:graphic-properties draw:stroke="none" draw:fill="none"><text:list-style style:name="M-outline1"><text:list-level-style-bullet text:level="1" text:bullet-char="●"><style:list-level-properties text:space-before="0.3cm" text:min-label-width="0.9cm"/><style:text-properties fo:font-family="StarSymbol" fo:font-size="45%"/></text:list-level-style-bullet><text:list-level-style-bullet text:level="2" text:bullet-char="–"><style:list-level-properties text:space-before="1.5cm" text:min-label-width="0.9cm"/></text:list-level-style-bullet></text:list-style></style:graphic-properties><style:text-properties fo:font-size="24pt"/></style:style>
  <style:style style:name="M-outline2" style:family="presentation" style:parent-style-name="M-outline1"><style:text-properties fo:font-size="20pt"/></style:style>
</office:styles>
<office:automatic-styles>
  <style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="10in" fo:page-height="5.625in"/></style:page-layout>
  <style:style style:name="Mdp1" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#eeeeee"/></style:style>
  <style:style style:name="Mgr1" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="#c00000" draw:stroke="none"/></style:style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="M" style:page-layout-name="PM1" draw:style-name="Mdp1">
  <draw:custom-shape draw:style-name="Mgr1" svg:x="0in" svg:y="5in" svg:width="10in" svg:height="0.25in"><draw:enhanced-geometry draw:type="rectangle"/></draw:custom-shape>
  <draw:frame presentation:style-name="M-title" presentation:class="title" presentation:placeholder="true" svg:x="0.5in" svg:y="0.25in" svg:width="9in" svg:height="1in"><draw:text-box><text:p>Master title</text:p></draw:text-box></draw:frame>
  <draw:frame presentation:class="page-number" svg:x="9in" svg:y="4.5in" svg:width="1in" svg:height="0.5in"><draw:text-box><text:p>No. <text:page-number>&lt;number&gt;</text:page-number></text:p></draw:text-box></draw:frame>
</style:master-page></office:master-styles></office:document-styles>`;

/** content.xml around the slides' draw:page elements, with the automatic styles they use (and `more`: font faces, further styles). */
const content = (pages: string, more: OdpMore = {}) => `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}>
${more.fontFaces ? `<office:font-face-decls>${more.fontFaces}</office:font-face-decls>` : ''}
<office:automatic-styles>${more.styles ?? ''}
  <style:style style:name="dpHidden" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="hidden"/></style:style>
  <style:style style:name="dpNumbered" style:family="drawing-page"><style:drawing-page-properties presentation:display-page-number="true"/></style:style>
  <style:style style:name="dpBlue" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#dde8ff"/></style:style>
  <style:style style:name="gr1" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="#4472c4" draw:stroke="none"/></style:style>
  <style:style style:name="ce1" style:family="table-cell"><style:graphic-properties draw:fill="solid" draw:fill-color="#ffcc00"/><style:paragraph-properties fo:border="1pt solid #000000"/></style:style>
  <style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="2in"/></style:style>
  <style:style style:name="ro1" style:family="table-row"><style:table-row-properties style:row-height="0.5in"/></style:style>
  <style:style style:name="Pspaced" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.25in" fo:margin-bottom="6pt" fo:line-height="150%"/></style:style>
  <style:style style:name="Pfixed" style:family="paragraph"><style:paragraph-properties style:line-height-at-least="30pt"/></style:style>
  <style:style style:name="Tcaps" style:family="text"><style:text-properties fo:text-transform="uppercase"/></style:style>
  <style:style style:name="grLinear" style:family="graphic"><style:graphic-properties draw:fill="gradient" draw:fill-gradient-name="G1" draw:opacity="50%" draw:stroke="none"/></style:style>
  <style:style style:name="grRadial" style:family="graphic"><style:graphic-properties draw:fill="gradient" draw:fill-gradient-name="G2" draw:opacity-name="O1" draw:stroke="none"/></style:style>
  <style:style style:name="prPlain" style:family="presentation" style:parent-style-name="M-outline1"/>
  <style:style style:name="grShrink" style:family="graphic"><style:graphic-properties draw:fill="none" draw:stroke="none" draw:fit-to-size="false" style:shrink-to-fit="true"/></style:style>
  <text:list-style style:name="L1"><text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix="."><style:list-level-properties text:space-before="0in" text:min-label-width="0.375in"/></text:list-level-style-number></text:list-style>
</office:automatic-styles>
<office:body><office:presentation>${pages}</office:presentation></office:body></office:document-content>`;

export const page = (body: string, style = '') => `<draw:page draw:master-page-name="M"${style ? ` draw:style-name="${style}"` : ''}>${body}</draw:page>`;
export const title = (text: string) => `<draw:frame presentation:style-name="M-title" presentation:class="title" svg:x="0.5in" svg:y="0.25in" svg:width="9in" svg:height="1in"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;
export const NOTES = '<presentation:notes><draw:frame presentation:class="notes" svg:x="1in" svg:y="1in" svg:width="5in" svg:height="3in"><draw:text-box><text:p>Speaker notes</text:p></draw:text-box></draw:frame></presentation:notes>';

/** What a test adds to content.xml: style:font-face elements (office:font-face-decls) and automatic styles. */
export interface OdpMore {
  fontFaces?: string;
  styles?: string;
}

export function odp(pages: string, extra: Record<string, Uint8Array> = {}, more: OdpMore = {}): Uint8Array {
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.presentation'), { level: 0 }],
    'content.xml': strToU8(content(pages, more)),
    'styles.xml': strToU8(STYLES),
    'META-INF/manifest.xml': strToU8('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.presentation"/></manifest:manifest>'),
    ...extra,
  });
}

