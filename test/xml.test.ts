import { describe, expect, it } from 'vitest';
import { parseXml, type XmlElement } from '../src/codecs/xml';

const root = (xml: string): XmlElement => parseXml(xml);
const first = (xml: string): XmlElement => root(xml).children.find((c): c is XmlElement => typeof c !== 'string')!;

describe('XML reader: start tags', () => {
  it('reads names, prefixes and attributes in their usual and less usual spellings', () => {
    const el = root(`<w:p a="1"  b='two' c = "x>y" d="&amp;&#65;" w:val="3"\t\ne="" ><w:r/></w:p>`);
    expect(el).toMatchObject({ name: 'p', prefix: 'w', attrs: { a: '1', b: 'two', c: 'x>y', d: '&A', val: '3', e: '' } });
    expect(el.children).toEqual([{ name: 'r', prefix: 'w', attrs: {}, children: [] }]);
  });

  it('tells self-closing tags from open ones, spaces before the end included', () => {
    const el = root('<a><b x="1" /><c   >t</c><d/></a>');
    expect(el.children.map((c) => (typeof c === 'string' ? c : `${c.name}:${c.children.length}`))).toEqual(['b:0', 'c:1', 'd:0']);
  });

  it('keeps the attributes of tags that are not well-formed (no space between, unquoted values)', () => {
    expect(first('<a><b x="1"y="2"/></a>').attrs).toEqual({ x: '1', y: '2' });
    expect(first('<a><b x=1 y="2"/></a>').attrs).toEqual({ y: '2' });
    expect(first('<a><b c d="4">t</b></a>')).toMatchObject({ attrs: { d: '4' }, children: ['t'] });
  });

  it('stores relationship-namespace attributes as r:<local>, whatever their prefix', () => {
    const el = root('<x:doc xmlns:x="urn:x" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:h x:id="7" rel:id="rId3"/></x:doc>');
    expect((el.children[0] as XmlElement).attrs).toEqual({ id: '7', 'r:id': 'rId3' });
  });

  it('hands over elements deeper than the stream\'s depth when asked, and leaves those it refuses out of the tree', () => {
    const xml = '<d><a><g><s n="1"/><s n="2"/><g><s n="3"/></g></g></a><a><s n="4"/></a></d>';
    const seen: string[] = [];
    const tree = parseXml(xml, {
      depth: 2,
      element: () => true,
      // Keep the first two shapes below depth 3, whatever group they are in.
      deeper: (el, depth) => {
        seen.push(`${el.name}${el.attrs['n'] ?? ''}@${depth}`);
        return el.name !== 's' || depth <= 3 || Number(el.attrs['n']) <= 2;
      },
    });
    expect(seen).toEqual(['s1@4', 's2@4', 's3@5', 'g@4', 'g@3', 's4@3']);
    const names = (el: XmlElement): string[] => el.children.flatMap((c) => (typeof c === 'string' ? [] : [`${c.name}${c.attrs['n'] ?? ''}`, ...names(c)]));
    expect(names(tree)).toEqual(['a', 'g', 's1', 's2', 'g', 'a', 's4']);
  });
});

