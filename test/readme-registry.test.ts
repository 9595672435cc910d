/** The README's table of operations (path and MCP tool) is the registry's list: an operation added or dropped without the README fails here. */
import { describe, expect, it } from 'vitest';
import readme from '../README.md?raw';
import { OPERATIONS } from '../src/operations/index';

/** Rows of the operations table: | `path` | `tool` | … |. */
const rows = [...readme.matchAll(/^\| `([a-z-]+)` \| `([a-z_]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);

describe('the README', () => {
  it('lists every operation of the registry with its MCP tool, and no other', () => {
    expect(rows.sort()).toEqual(OPERATIONS.map((op) => `${op.path} ${op.type}`).sort());
  });
});
