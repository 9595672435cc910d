// Types of generate-html.mjs for test/poison.test.ts.
export function normalHtml(tag?: string): Uint8Array;
export function nestedHtml(kind: 'divs' | 'tables' | 'lists', depth: number): Uint8Array;
export function hugeTableHtml(rows: number, cols: number): Uint8Array;
export function htmlWithFont(fontBytes: Uint8Array, mime: 'font/woff' | 'font/woff2', label: string): Uint8Array;
