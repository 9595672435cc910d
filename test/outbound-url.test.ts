/**
 * The outbound URL guard (src/lib/outbound-url.ts), table-driven over every spelling of a
 * non-public address. Nothing here connects anywhere: the refusals are checked, and fetch is
 * watched to prove the delivery path never calls it for a refused URL.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { outboundUrlProblem } from '../src/lib/outbound-url';
import { deliverOnce, type WebhookOutbox } from '../src/service/tasks/webhook';
import { balanceOf, markerPdf, newAccount, uploadOk } from './helpers';

const strict = { allowInsecure: false };

const REFUSED: [string, RegExp][] = [
  // scheme and userinfo
  ['http://hooks.example.com/x', /https:\/\//],
  ['ftp://hooks.example.com/x', /https:\/\//],
  ['https://user:pw@hooks.example.com/x', /user name or password/],
  ['https://user:pw@127.0.0.1/x', /user name or password/],
  ['not a url', /not a valid URL/],
  // loopback, every IPv4 spelling the URL parser accepts
  ['https://127.0.0.1:9443/hook', /loopback/],
  ['https://127.0.0.1./hook', /loopback/],
  ['https://2130706433/', /loopback/],
  ['https://0x7f.0.0.1/', /loopback/],
  ['https://0x7f000001/', /loopback/],
  ['https://0177.0.0.1/', /loopback/],
  ['https://017700000001/', /loopback/],
  ['https://127.1/', /loopback/],
  ['https://127.0.1/', /loopback/],
  ['https://127.255.255.254/', /loopback/],
  // names
  ['https://localhost/', /this machine/],
  ['https://localhost./', /this machine/],
  ['https://LOCALHOST:8787/', /this machine/],
  ['https://api.localhost/', /this machine/],
  ['https://metadata.google.internal/computeMetadata/v1/', /internal/],
  ['https://printer.local/', /local or internal/],
  ['https://nas.home.arpa/', /local or internal/],
  ['https://metadata/', /single-label/],
  // IPv6 forms
  ['https://[::1]/', /loopback/],
  ['https://[0:0:0:0:0:0:0:1]/', /loopback/],
  ['https://[::]/', /unspecified/],
  ['https://[::ffff:127.0.0.1]/', /127\.0\.0\.1, which is not public/],
  ['https://[::ffff:7f00:1]/', /127\.0\.0\.1, which is not public/],
  ['https://[::ffff:169.254.169.254]/', /169\.254\.169\.254/],
  ['https://[::127.0.0.1]/', /127\.0\.0\.1/],
  ['https://[64:ff9b::10.0.0.1]/', /10\.0\.0\.1/],
  ['https://[2002:c0a8:0101::1]/', /192\.168\.1\.1 \(6to4\)/],
  ['https://[fd00::1]/', /unique local/],
  ['https://[fc00::1]/', /unique local/],
  ['https://[fe80::1]/', /link-local/],
  ['https://[fec0::1]/', /site-local/],
  ['https://[ff02::1]/', /multicast/],
  ['https://[2001:db8::1]/', /documentation/],
  // private, link-local (metadata), CGNAT, unspecified, broadcast, multicast, documentation, benchmarking
  ['https://169.254.169.254/latest/meta-data/', /link-local/],
  ['https://10.0.0.1/', /private/],
  ['https://10.255.255.255/', /private/],
  ['https://172.16.0.1/', /private/],
  ['https://172.31.255.254/', /private/],
  ['https://192.168.1.1/', /private/],
  ['https://100.64.0.1/', /carrier-grade NAT/],
  ['https://100.127.255.254/', /carrier-grade NAT/],
  ['https://0.0.0.0/', /unspecified/],
  ['https://0/', /unspecified/],
  ['https://255.255.255.255/', /broadcast/],
  ['https://224.0.0.1/', /multicast/],
  ['https://239.255.255.250/', /multicast/],
  ['https://192.0.2.10/', /documentation/],
  ['https://198.51.100.7/', /documentation/],
  ['https://203.0.113.9/', /documentation/],
  ['https://198.18.0.1/', /benchmarking/],
  ['https://192.0.0.170/', /IETF/],
  // issue 40: trailing dots in any count and empty labels, which the parser keeps in names
  ['https://localhost../', /this machine/],
  ['https://localhost.../x', /this machine/],
  ['https://127.0.0.1../', /loopback/],
  ['https://0x7f.1../', /loopback/],
  ['https://10.0.0.1.../', /private/],
  ['https://api.localhost../', /this machine/],
  ['https://hooks.example.com./', /dot/],
  ['https://hooks.example.com../', /dot/],
  ['https://hooks..example.com/', /empty label/],
  ['https://.hooks.example.com/', /empty label/],
  // more names of this machine or a local network
  ['https://localhost.localdomain/', /local or internal/],
  ['https://db.corp.internal./', /internal/],
  ['https://router.lan/', /local or internal/],
  ['https://1.0.0.127.in-addr.arpa/', /local or internal/],
  // names that carry a non-public address (wildcard DNS such as nip.io, sslip.io)
  ['https://127.0.0.1.nip.io/', /127\.0\.0\.1/],
  ['https://app.10.0.0.5.sslip.io/', /10\.0\.0\.5/],
  ['https://169-254-169-254.sslip.io/', /169\.254\.169\.254/],
  ['https://magic.7f000001.nip.io/', /127\.0\.0\.1/],
  // the unspecified address and IPv4-mapped IPv6 in every form
  ['https://[::]:8443/', /unspecified/],
  ['https://[::ffff:0.0.0.0]/', /0\.0\.0\.0/],
  ['https://[::ffff:10.1.2.3]/', /10\.1\.2\.3/],
  ['https://[::ffff:100.64.0.1]/', /100\.64\.0\.1/],
  ['https://[fe80::a:b:c:d]/', /link-local/],
  ['https://0.0.0.0:8080/', /unspecified/],
  ['https://00000/', /unspecified/],
  ['https://169.254.0.1/', /link-local/],
  ['https://0251.0376.0251.0376/', /link-local/], // 169.254.169.254 in octal
  ['https://0xa9fea9fe/', /link-local/], // 169.254.169.254 in hex
  ['https://2852039166/', /link-local/], // 169.254.169.254 in decimal
  ['https://100.100.100.200/', /carrier-grade NAT/], // Alibaba Cloud's metadata address
];

const ALLOWED = [
  'https://hooks.example.com/pdf-edge',
  'https://hooks.example.com:8443/a?b=c',
  'https://93.184.215.14/hook', // a public address
  'https://172.32.0.1/', // just past 172.16.0.0/12
  'https://100.128.0.1/', // just past 100.64.0.0/10
  'https://[2606:4700:4700::1111]/',
  'https://[::ffff:8.8.8.8]/',
  'https://files-1.example.com/report.pdf', // a digit label is not an address
  'https://8.8.8.8.nip.io/', // a public address in a name
  'https://cdn.2024.example.com/',
];

describe('outbound URL guard', () => {
  it.each(REFUSED)('refuses %s', (url, why) => {
    const problem = outboundUrlProblem(url, strict);
    expect(problem).not.toBeNull();
    expect(problem).toMatch(why);
  });

  it.each(ALLOWED)('allows %s', (url) => {
    expect(outboundUrlProblem(url, strict)).toBeNull();
  });

  it('ALLOW_INSECURE_URLS (development) lets http:// and this machine through, but no other scheme', () => {
    expect(outboundUrlProblem('http://127.0.0.1:9999/hook', { allowInsecure: true })).toBeNull();
    expect(outboundUrlProblem('https://localhost/', { allowInsecure: true })).toBeNull();
    expect(outboundUrlProblem('ftp://127.0.0.1/', { allowInsecure: true })).toMatch(/https/);
  });
});

describe('the guard at request time and before each delivery', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a webhook_url naming a non-public host is refused with 422 and nothing is charged', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'G'), 'g.pdf');
    for (const webhook_url of ['https://127.0.0.1:9443/hook', 'https://2130706433/', 'https://[::ffff:127.0.0.1]/', 'https://169.254.169.254/', 'https://user:pw@hooks.example.com/']) {
      const res = await acct.json('/v1/pdf/rotate', { file_id: up.file_id, webhook_url });
      expect(res.status, webhook_url).toBe(422);
      const body = await res.json<{ errors: { path: string; message: string }[] }>();
      expect(body.errors[0]!.path).toBe('webhook_url');
      expect(body.errors[0]!.message).toMatch(/^webhook_url (must|is)/);
    }
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('a delivery to a refused URL never reaches fetch and is not retried', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const outbox: WebhookOutbox = { url: 'https://[::1]:9443/hook', delivery_id: 'd1', event: 'task.done', body: '{}', attempts: 0, next_at: null, last_result: null };
    const outcome = await deliverOnce(outbox, 'secret', strict);
    expect(outcome).toMatchObject({ ok: false, permanent: true });
    expect(outcome.result).toMatch(/not sent/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
