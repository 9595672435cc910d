// Types of generate-docx.mjs for test/poison.test.ts.
export function documentXml(body: string): string;
export function docx(body: string, extra?: Record<string, string | Uint8Array>): Uint8Array;
export function para(text: string): string;
export function normalDocx(tag?: string): Uint8Array;
export function nestedTablesDocx(depth: number): Uint8Array;
export function nestedListDocx(depth: number): Uint8Array;
export function nestedTextBoxesDocx(depth: number): Uint8Array;
export function nestedGroupsDocx(depth: number): Uint8Array;
export function manyParagraphsDocx(count: number): Uint8Array;
