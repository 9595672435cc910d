// Hostile and normal HTML for the poison suite: divs, tables and lists nested N deep, a huge table,
// and pages whose @font-face is a data: URL (the fonts come from generate-fonts.mjs). Pure JavaScript.
import { utf8 } from './common.mjs';

const page = (title, body, head = '') => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

export function normalHtml(tag = 'CANARY') {
  return utf8(
    page(
      `${tag} page`,
      `<h1>${tag} heading</h1><p>Ordinary paragraph with Cyrillic: Обычный абзац.</p><table border="1"><tr><td>A1</td><td>B1</td></tr><tr><td>A2</td><td>B2</td></tr></table><ul><li>one</li><li>two</li></ul><p>${tag} end</p>`,
    ),
  );
}

/** kind: 'divs' | 'tables' | 'lists'; `depth` levels, text at the bottom and at each level. */
export function nestedHtml(kind, depth) {
  const [open, close] =
    kind === 'divs' ? ['<div style="margin-left:2px;border:1px solid #999">', '</div>'] : kind === 'tables' ? ['<table border="1"><tr><td>', '</td></tr></table>'] : ['<ul><li>', '</li></ul>'];
  const levelText = (i) => (i % 10 === 0 ? `level ${i} ` : '');
  let s = '';
  for (let i = 0; i < depth; i++) s += open + levelText(i);
  s += `deepest of ${depth} ${kind}`;
  for (let i = 0; i < depth; i++) s += close;
  return utf8(page(`${kind} nested ${depth}`, `<p>${kind} nested ${depth} deep</p>${s}<p>after the ${kind}</p>`));
}

/** A table of `rows` × `cols` cells (issue 40: a huge HTML table). */
export function hugeTableHtml(rows, cols) {
  const parts = [`<!doctype html><html><head><meta charset="utf-8"><title>huge table</title></head><body><table border="1">`];
  for (let r = 0; r < rows; r++) {
    let row = '<tr>';
    for (let c = 0; c < cols; c++) row += `<td>r${r}c${c}</td>`;
    parts.push(row + '</tr>');
  }
  parts.push('</table></body></html>');
  return utf8(parts.join(''));
}

/** A page that uses a font given as a data: URL (`mime` font/woff or font/woff2). */
export function htmlWithFont(fontBytes, mime, label) {
  let b64 = '';
  const step = 0x8000;
  for (let i = 0; i < fontBytes.length; i += step) b64 += String.fromCharCode(...fontBytes.subarray(i, i + step));
  const data = btoa(b64);
  const head = `<style>@font-face{font-family:"Lying";src:url(data:${mime};base64,${data}) format("${mime === 'font/woff2' ? 'woff2' : 'woff'}")}p.l{font-family:"Lying",sans-serif;font-size:14pt}</style>`;
  return utf8(page(`font ${label}`, `<p class="l">Text in a font whose declared sizes lie (${label}). Кириллица.</p><p>after the font</p>`, head));
}
