// The webhook URL rule, boundary by boundary (SANDBOX.md: an absolute https:// URL without
// credentials whose host is not localhost, a loopback, private or link-local address, else 400
// parameter_invalid; docs/behaviour.md adds spaces and control characters, dotless hosts,
// 100.64/10, multicast and the IPv4-in-IPv6 forms). Each URL goes through POST
// /v1/webhook_endpoints with the exact message, and through webhookUrlProblem itself, so that
// every condition of src/resources/webhook_endpoints/url.ts is pinned from both sides of its
// edge. Hosts are judged after WHATWG URL parsing (2130706433 is 127.0.0.1, [::ffff:10.0.0.1] is
// [::ffff:a00:1]); each case below was first checked against Node's URL parser.
import { describe, expect, it } from 'vitest';
import { webhookUrlProblem } from '../../src/resources/webhook_endpoints/url.js';
import { expectError, expectStatus, invalid, send, writesApp } from './helpers.js';

const app = writesApp();
const create = (url: string) => send(app, 'POST', '/v1/webhook_endpoints', { body: { url, events: ['*'] } });

const CONTROL = 'must not contain spaces or control characters';
const ABSOLUTE = 'must be an absolute URL';
const HTTPS = 'must use https';
const CREDENTIALS = 'must not contain credentials';
const LOCALHOST = 'must not point at localhost';
const PRIVATE = 'must not point at a loopback, private or link-local address';
const DOTLESS = 'must have a public host name';
const PREFIX = 'must begin with https://';
const BACKSLASH = 'must not contain backslashes';

/** Refused: 400 parameter_invalid on url with exactly this message, and the same reason from the function. */
async function expectRefused(url: string, reason: string, received = `"${url}"`): Promise<void> {
  expect(webhookUrlProblem(url)).toBe(reason);
  const result = await create(url);
  expectError(result, invalid('url'));
  expect(result.json.error.message).toBe(`Invalid url: ${reason} (webhook URLs are public https URLs); received ${received}.`);
}

/** Accepted: 201 keeping the URL as sent, and no problem from the function. */
async function expectAccepted(url: string): Promise<void> {
  expect(webhookUrlProblem(url)).toBeNull();
  const result = await create(url);
  expectStatus(result, 201);
  expect(result.json.url).toBe(url);
}

describe('spaces and control characters (U+0000 to U+0020 and U+007F)', () => {
  // The URL parser would strip or encode each of these, so the stored text would differ.
  it.each([
    ['a NUL', 'https://example.com/a\u0000b', '"https://example.com/a\\u0000b"'],
    ['U+0001', 'https://example.com/a\u0001b', '"https://example.com/a\\u0001b"'],
    ['a tab in the host', 'https://exa\tmple.com/hook', '"https://exa\\tmple.com/hook"'],
    ['a newline in the path', 'https://example.com/ho\nok', '"https://example.com/ho\\nok"'],
    ['a carriage return at the end', 'https://example.com/hook\r', '"https://example.com/hook\\r"'],
    ['U+001F', 'https://example.com/a\u001fb', '"https://example.com/a\\u001fb"'],
    ['a leading space', ' https://example.com/hook', '" https://example.com/hook"'],
    ['a trailing space', 'https://example.com/hook ', '"https://example.com/hook "'],
    ['a space in the path', 'https://example.com/a b', '"https://example.com/a b"'],
    ['a DEL', 'https://example.com/a\u007fb', '"https://example.com/a\u007fb"'],
    ['a space before a private host', ' https://10.0.0.1/', '" https://10.0.0.1/"'],
  ])('refuses %s', async (_case, url, received) => {
    await expectRefused(url, CONTROL, received);
  });

  it.each([
    ['"!" (U+0021, just above the space)', 'https://example.com/a!b'],
    ['"~" (U+007E, just below DEL)', 'https://example.com/a~b'],
    ['U+0080 (just above DEL)', 'https://example.com/a\u0080b'],
    ['a percent-encoded space', 'https://example.com/a%20b'],
  ])('accepts %s', async (_case, url) => {
    await expectAccepted(url);
  });
});

describe('absolute URLs only', () => {
  it('refuses an empty string, shown as such', async () => {
    await expectRefused('', ABSOLUTE, 'an empty string');
  });

  it.each([
    ['/webhooks'],
    ['hooks.example.com/webhooks'],
    ['https://'],
    // Not IPv4 addresses, and the URL parser refuses them as hosts.
    ['https://256.0.0.1/'],
    ['https://1.2.3.256/'],
    ['https://999.999.999.999/'],
    ['https://1.2.3.4.5/'],
    ['https://10..0.1/'],
    ['https://08.0.0.1/'],
    // Malformed IPv6: the URL parser refuses them before the address is judged.
    ['https://[1:2:3:4:5:6:7:8:9]/'],
    ['https://[1:2:3:4:5:6:7]/'],
    ['https://[::1::2]/'],
    ['https://[12345::]/'],
    ['https://[g::1]/'],
  ])('refuses %j', async (url) => {
    await expectRefused(url, ABSOLUTE);
  });
});

describe('https only, without credentials', () => {
  it.each([['http://example.com/hook'], ['ftp://example.com/hook'], ['wss://example.com/hook'], ['http://localhost/hook']])(
    'refuses %s as not https, whatever the host',
    async (url) => {
      await expectRefused(url, HTTPS);
    },
  );

  it('accepts the scheme in capitals (the parser reads it as https:)', async () => {
    await expectAccepted('HTTPS://example.com/hook');
  });

  it.each([
    ['a user and a password', 'https://user:secret@example.com/hook'],
    ['a user only', 'https://user@example.com/hook'],
    ['a user and an empty password', 'https://user:@example.com/hook'],
    ['a password only', 'https://:secret@example.com/hook'],
    ['a user, before the localhost check', 'https://user@localhost/hook'],
    // The URL parser drops an empty user before the host: the text kept would not be the URL.
    ['an empty user', 'https://@example.com/hook'],
    ['an empty user and password', 'https://:@example.com/hook'],
  ])('refuses %s', async (_case, url) => {
    await expectRefused(url, CREDENTIALS);
  });

  it.each([
    ['in the path', 'https://example.com/a@b'],
    ['in the query', 'https://example.com/hook?to=a@b'],
    ['in the fragment', 'https://example.com#a@b'],
  ])('accepts an @ %s, after the host', async (_case, url) => {
    await expectAccepted(url);
  });

  // The URL parser reads each of these as https://example.com/…, so the text kept would not be
  // the URL delivered to (SANDBOX.md: an absolute https:// URL).
  it.each([['https:example.com/hook'], ['https:/example.com/hook'], ['HTTPS:example.com'], ['https:\\\\example.com/hook']])(
    'refuses %j as not written https://',
    async (url) => {
      await expectRefused(url, PREFIX, JSON.stringify(url));
    },
  );

  it.each([['https://example.com\\hook'], ['https://example.com/a\\b'], ['https://example.com/hook?a\\b']])(
    'refuses the backslash in %j',
    async (url) => {
      await expectRefused(url, BACKSLASH, JSON.stringify(url));
    },
  );
});

describe('localhost and host names without a dot', () => {
  it.each([
    ['https://localhost/hook'],
    ['https://LOCALHOST/hook'],
    ['https://LocalHost:8443/hook'],
    ['https://localhost./hook'],
    ['https://x.localhost/hook'],
    ['https://a.b.localhost/hook'],
    ['https://X.LOCALHOST./hook'],
    ['https://.localhost/hook'],
  ])('refuses %s as localhost', async (url) => {
    await expectRefused(url, LOCALHOST);
  });

  it.each([
    ['https://intranet/hook'],
    ['https://intranet./hook'],
    ['https://xlocalhost/hook'],
    ['https://1e2/hook'],
    ['https://intranet1/hook'],
    // Empty labels: no public host name has them (only one trailing dot is the same host).
    ['https://a..b/hook'],
    ['https://.example.com/hook'],
    ['https://example.com../hook'],
    ['https://..../hook'],
    ['https://10.0.0../hook'],
    ['https://localhost../hook'],
  ])('refuses %s as having no public host name', async (url) => {
    await expectRefused(url, DOTLESS);
  });

  it.each([
    ['https://example.com/hook'],
    ['https://example.com./hook'],
    ['https://localhost.example.com/hook'],
    ['https://localhost.com/hook'],
    ['https://hooks.localhost.example.com/'],
    // Not IPv4 addresses: "1e2" is no number to the URL parser, so these are host names.
    ['https://10.0.0.1e2/hook'],
    ['https://0.0.0.1e2/hook'],
    ['https://1.2.3.a/hook'],
    // An IPv4 address as the first labels of a name is no address.
    ['https://10.0.0.1.example.com/hook'],
  ])('accepts %s', async (url) => {
    await expectAccepted(url);
  });
});

describe('IPv4 addresses', () => {
  it.each([
    // 0/8, this network
    ['https://0.0.0.0/hook'],
    ['https://0.255.255.255/hook'],
    // 10/8
    ['https://10.0.0.1/hook'],
    ['https://10.0.0.255/hook'],
    ['https://10.0.10.10/hook'],
    ['https://10.255.255.255/hook'],
    // 127/8
    ['https://127.0.0.1/hook'],
    ['https://127.255.255.254/hook'],
    // 169.254/16
    ['https://169.254.0.1/hook'],
    ['https://169.254.169.254/latest/meta-data'],
    // 172.16/12
    ['https://172.16.0.1/hook'],
    ['https://172.31.255.255/hook'],
    // 192.168/16
    ['https://192.168.0.1/hook'],
    ['https://192.168.255.255/hook'],
    // 100.64/10
    ['https://100.64.0.1/hook'],
    ['https://100.127.255.255/hook'],
    // 224/4 and above
    ['https://224.0.0.1/hook'],
    ['https://239.255.255.250/hook'],
    ['https://240.0.0.1/hook'],
    ['https://255.255.255.255/hook'],
    // Other spellings the URL parser turns into these addresses.
    ['https://10.0.0.1./hook'],
    ['https://2130706433/hook'],
    ['https://0x7f000001/hook'],
    ['https://0x7f.1/hook'],
    ['https://0177.0.0.1/hook'],
    ['https://127.1/hook'],
    ['https://012.0.0.1/hook'],
    ['https://3232235521/hook'],
    ['https://0xa9fe0101/hook'],
    ['https://%31%30.0.0.1/hook'],
    ['https://\uff11\uff10.0.0.1/hook'],
  ])('refuses %s', async (url) => {
    await expectRefused(url, PRIVATE);
  });

  it.each([
    ['https://1.0.0.0/hook'],
    ['https://9.255.255.255/hook'],
    ['https://11.0.0.0/hook'],
    ['https://126.255.255.255/hook'],
    ['https://128.0.0.1/hook'],
    ['https://169.253.255.255/hook'],
    ['https://169.255.0.1/hook'],
    ['https://168.254.0.1/hook'],
    ['https://169.1.0.1/hook'],
    ['https://8.254.0.1/hook'],
    ['https://172.15.255.255/hook'],
    ['https://172.32.0.0/hook'],
    ['https://171.16.0.1/hook'],
    ['https://173.31.0.1/hook'],
    ['https://8.20.0.1/hook'],
    ['https://192.167.255.255/hook'],
    ['https://192.169.0.1/hook'],
    ['https://191.168.0.1/hook'],
    ['https://8.168.0.1/hook'],
    ['https://192.0.2.1/hook'],
    ['https://100.63.255.255/hook'],
    ['https://100.128.0.0/hook'],
    ['https://99.64.0.1/hook'],
    ['https://101.127.0.1/hook'],
    ['https://8.100.0.1/hook'],
    ['https://223.255.255.255/hook'],
    ['https://8.8.8.8/hook'],
    ['https://8.8.8.255/hook'],
    ['https://134744072/hook'],
  ])('accepts %s', async (url) => {
    await expectAccepted(url);
  });
});

describe('IPv6 addresses', () => {
  it.each([
    // unspecified and loopback
    ['https://[::]/hook'],
    ['https://[::1]/hook'],
    ['https://[0:0:0:0:0:0:0:1]/hook'],
    // IPv4-compatible ::0.0.0.2 is in 0/8
    ['https://[::2]/hook'],
    // fc00::/7
    ['https://[fc00::1]/hook'],
    ['https://[fd12::1]/hook'],
    ['https://[fdff:ffff::1]/hook'],
    // fe80::/10
    ['https://[fe80::1]/hook'],
    ['https://[febf:ffff::1]/hook'],
    // ff00::/8
    ['https://[ff00::]/hook'],
    ['https://[ff02::1]/hook'],
    ['https://[ffff::1]/hook'],
    // IPv4-mapped ::ffff:a.b.c.d
    ['https://[::ffff:10.0.0.1]/hook'],
    ['https://[::ffff:127.0.0.1]/hook'],
    ['https://[::ffff:0.0.0.0]/hook'],
    ['https://[::ffff:169.254.169.254]/hook'],
    ['https://[::ffff:172.16.0.1]/hook'],
    ['https://[::ffff:192.168.1.1]/hook'],
    ['https://[::ffff:100.64.0.1]/hook'],
    ['https://[::ffff:224.0.0.1]/hook'],
    ['https://[::ffff:a00:1]/hook'],
    // IPv4-compatible ::a.b.c.d
    ['https://[::a00:1]/hook'],
    ['https://[::10.0.0.1]/hook'],
    ['https://[::127.0.0.1]/hook'],
  ])('refuses %s', async (url) => {
    await expectRefused(url, PRIVATE);
  });

  it.each([
    ['https://[2001:db8::1]/hook'],
    ['https://[2001:db8::]/hook'],
    ['https://[2001:4860:4860::8888]/hook'],
    ['https://[1::]/hook'],
    ['https://[1::1]/hook'],
    ['https://[1:2:3:4:5:6:7:8]/hook'],
    ['https://[1:2:3:4:5:6:7:1]/hook'],
    ['https://[::1:0:0:0]/hook'],
    // next to fc00::/7, fe80::/10 and ff00::/8
    ['https://[fbff::1]/hook'],
    ['https://[fe00::1]/hook'],
    ['https://[fe7f::1]/hook'],
    ['https://[fec0::1]/hook'],
    ['https://[feff::1]/hook'],
    // public IPv4 inside, or a private one not in the mapped or compatible position
    ['https://[::ffff:8.8.8.8]/hook'],
    ['https://[::ffff:172.32.0.1]/hook'],
    ['https://[::ffff:169.253.0.1]/hook'],
    ['https://[::808:808]/hook'],
    ['https://[::1:a00:1]/hook'],
    ['https://[1::ffff:a00:1]/hook'],
    ['https://[2001:db8::a00:1]/hook'],
  ])('accepts %s', async (url) => {
    await expectAccepted(url);
  });
});
