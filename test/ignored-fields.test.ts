/** DECISIONS: extra body fields are ignored, and an operation's 202 lists them (absent when none was). */
import { describe, expect, it } from 'vitest';
import { markerPdf, newAccount, uploadOk, waitTask } from './helpers';

describe('ignored_fields', () => {
  it('lists the fields an operation does not take; absent when there are none', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'I'), 'in.pdf');
    const res = await acct.json('/v1/pdf/rotate', { file_id: up.file_id, angle: 180, angel: 90, nested: { a: [1, 2] } });
    expect(res.status).toBe(202);
    const body = await res.json<{ task_id: string; ignored_fields?: string[] }>();
    expect([...(body.ignored_fields ?? [])].sort()).toEqual(['angel', 'nested']);
    expect((await waitTask(acct, body.task_id)).status).toBe('done');
    const plain = await (await acct.json('/v1/pdf/rotate', { file_id: up.file_id, webhook_url: undefined })).json<Record<string, unknown>>();
    expect('ignored_fields' in plain).toBe(false);
  });
});
