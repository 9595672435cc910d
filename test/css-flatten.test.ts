/** Modern CSS written out for MuPDF's reader (src/convert/html/css-flatten.ts). */
import { describe, expect, it } from 'vitest';
import { flattenCss } from '../src/convert/html/css-flatten';

describe('flattenCss', () => {
  it('nesting with and without &, custom properties with fallbacks, @page margin boxes dropped, @media for print written out in place', () => {
    const css = `
      /* a comment { with braces } */
      :root { --green: #1ee494; --grey: #a9a; --accent: var(--green) }
      @page { margin: 3cm; @bottom-left { content: 'x'; color: var(--green) } }
      aside { display: flex; address { font-style: normal; &#from { color: var(--grey); } } }
      dt, dd { margin: 0; &::after { content: ':'; } }
      h1 { color: var(--accent); border-color: var(--missing, red) }
      @media print { p { span { color: var(--grey) } } }
      @media screen { p { display: none } }
    `;
    expect(flattenCss(css)).toBe(
      '@page{margin: 3cm}' +
        'aside{display: flex}aside address{font-style: normal}aside address#from{color: #a9a}' +
        "dt, dd{margin: 0}dt::after, dd::after{content: ':'}" +
        'h1{color: #1ee494;border-color: red}' +
        'p span{color: #a9a}',
    );
  });

  it('plain CSS passes through; strings with braces and semicolons stay whole', () => {
    expect(flattenCss("p { content: '{;}'; color: blue } a:hover { color: red }")).toBe("p{content: '{;}';color: blue}a:hover{color: red}");
  });
});
