import { it } from 'vitest';
import { markerPdf, newAccount, uploadOk, runOp } from './helpers';
import { damagedPdf, encryptPdf, makePng } from './fixtures';
import { detectKind } from '../src/lib/detect';

it('probe', async () => {
  const acct = await newAccount();
  const m = await markerPdf(3, 'D');
  console.log('len', m.length, JSON.stringify(new TextDecoder('latin1').decode(m.slice(0, 400))));
  for (const n of [100, 200, 400, 800]) {
    const up = await acct.upload(m.slice(0, n), 'x.pdf');
    const j = await up.json<any>();
    console.log(n, up.status, JSON.stringify(j));
    if (up.status === 201) {
      const rec = await runOp(acct, 'rotate', { file_id: j.file_id });
      console.log(n, rec.status, rec.error_message, rec.refunded);
    }
  }
  const enc = await encryptPdf(m);
  const eu = await acct.upload(enc, 'enc.pdf');
  const ej = await eu.json<any>();
  console.log('enc', eu.status, JSON.stringify(ej));
  const rec = await runOp(acct, 'rotate', { file_id: ej.file_id });
  console.log('enc', rec.status, rec.error_message, rec.refunded);
  const png = makePng();
  console.log('png', detectKind(png), (await acct.upload(png, 'a.png')).status);
});
