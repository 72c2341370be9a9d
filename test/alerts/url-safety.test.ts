import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress } from '../../src/alerts/addresses.js';
import { checkUrlAtConfiguration, checkUrlStatic, checkUrlTarget, isLocalUrl, type RejectionReason, type Resolver } from '../../src/alerts/url-safety.js';

const strict = { allowPrivate: false };
const relaxed = { allowPrivate: true };

// Names a hostile DNS answers with non-public addresses (nip.io-style and rebinding services).
const HOSTILE_DNS: Record<string, string[]> = {
  'loopback.example.com': ['127.0.0.1'],
  'ten.example.com': ['10.1.2.3'],
  'rfc1918.example.com': ['172.16.5.4'],
  'home.example.com': ['192.168.1.1'],
  'cgnat.example.com': ['100.64.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'zero.example.com': ['0.0.0.0'],
  'multicast.example.com': ['239.255.255.250'],
  'reserved.example.com': ['240.0.0.1'],
  'v6loop.example.com': ['::1'],
  'ula.example.com': ['fd12:3456::1'],
  'v6linklocal.example.com': ['fe80::1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
  'sixtofour.example.com': ['2002:c0a8:0101::1'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.1'],
  'empty.example.com': [],
};

const fakeDns: Resolver = async (host) => {
  const answers = HOSTILE_DNS[host];
  if (answers === undefined) {
    if (host === 'public.example.com') return [{ address: '93.184.216.34', family: 4 }];
    if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  }
  return answers.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
};

const HOSTILE: Array<[string, RejectionReason]> = [
  // scheme
  ['http://hooks.example.com/x', 'scheme'],
  ['ftp://hooks.example.com/x', 'scheme'],
  ['file:///etc/passwd', 'scheme'],
  ['gopher://hooks.example.com:70/_x', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['ws://hooks.example.com/x', 'scheme'],
  ['not a url', 'scheme'],
  ['//hooks.example.com/x', 'scheme'],
  // control characters, which the URL parser would silently drop (CR, LF, tab) or keep
  ['https://hooks.example.com/x\r\nX-Injected: 1', 'control-character'],
  ['https://hooks.example.com/x\ny', 'control-character'],
  ['https://hooks.example.com/x\ty', 'control-character'],
  ['https://hooks.exa\nmple.com/x', 'control-character'],
  ['https://hooks.example.com/x\u0000', 'control-character'],
  ['https://hooks.example.com/x?a=\u001b[31m', 'control-character'],
  ['https://hooks.example.com/x\u007f', 'control-character'],
  ['https://hooks.example.com/x\u0085', 'control-character'],
  ['\nhttps://hooks.example.com/x', 'control-character'],
  // port 0, which no receiver listens on
  ['https://hooks.example.com:0/x', 'port'],
  ['https://hooks.example.com:00/x', 'port'],
  ['https://public.example.com:0/x', 'port'],
  // credentials
  ['https://user:pass@hooks.example.com/x', 'credentials'],
  ['https://user@hooks.example.com/x', 'credentials'],
  ['https://:pw@hooks.example.com/x', 'credentials'],
  // localhost forms
  ['https://localhost/x', 'localhost'],
  ['https://LOCALHOST:8443/x', 'localhost'],
  ['https://localhost./x', 'localhost'],
  ['https://api.localhost/x', 'localhost'],
  // internal names
  ['https://metadata.google.internal/computeMetadata/v1/', 'internal'],
  ['https://service.internal/x', 'internal'],
  ['https://printer.local/x', 'internal'],
  ['https://router.home.arpa/x', 'internal'],
  ['https://intranet/x', 'internal'],
  // IPv4 literals in every notation
  ['https://127.0.0.1/x', 'ip-literal'],
  ['https://2130706433/x', 'ip-literal'],
  ['https://0177.0.0.1/x', 'ip-literal'],
  ['https://0x7f.1/x', 'ip-literal'],
  ['https://0x7f000001/x', 'ip-literal'],
  ['https://127.1/x', 'ip-literal'],
  ['https://10.0.0.1/x', 'ip-literal'],
  ['https://169.254.169.254/latest/meta-data/', 'ip-literal'],
  ['https://100.64.0.1/x', 'ip-literal'],
  ['https://8.8.8.8/x', 'ip-literal'],
  ['https://0/x', 'ip-literal'],
  // IPv6 literals
  ['https://[::1]/x', 'ip-literal'],
  ['https://[::ffff:127.0.0.1]/x', 'ip-literal'],
  ['https://[::ffff:7f00:1]/x', 'ip-literal'],
  ['https://[64:ff9b::7f00:1]/x', 'ip-literal'],
  ['https://[fe80::1]/x', 'ip-literal'],
  ['https://[fd00::1]/x', 'ip-literal'],
  ['https://[2606:4700::1111]/x', 'ip-literal'],
  // names whose DNS answers are not public
  ...Object.keys(HOSTILE_DNS)
    .filter((h) => h !== 'empty.example.com')
    .map((h): [string, RejectionReason] => [`https://${h}/x`, 'private-address']),
  ['https://empty.example.com/x', 'dns'],
  ['https://nxdomain.example.com/x', 'dns'],
];

describe('webhook URL safety', () => {
  it('has a table of at least 40 hostile URLs', () => {
    assert.ok(HOSTILE.length >= 40, `only ${HOSTILE.length}`);
  });

  for (const [url, reason] of HOSTILE) {
    it(`refuses ${url} as ${reason}`, async () => {
      const checked = await checkUrlTarget(url, strict, fakeDns);
      assert.deepEqual(checked.ok ? 'accepted' : checked.reason, reason);
    });
  }

  it('accepts a public https URL and pins the checked address', async () => {
    const checked = await checkUrlTarget('https://public.example.com:8443/hooks?x=1', strict, fakeDns);
    assert.ok(checked.ok);
    assert.equal(checked.target.address, '93.184.216.34');
    assert.equal(checked.host, 'public.example.com');
  });

  it('at configuration refuses a private answer but accepts a name that does not resolve yet', async () => {
    assert.equal(await checkUrlAtConfiguration('https://ten.example.com/x', strict, fakeDns), 'private-address');
    assert.equal(await checkUrlAtConfiguration('https://nxdomain.example.com/x', strict, fakeDns), undefined);
    assert.equal(await checkUrlAtConfiguration('https://127.1/x', strict, fakeDns), 'ip-literal');
  });

  describe('SVC_WEBHOOK_ALLOW_PRIVATE relaxes only private, loopback, literal and localhost', () => {
    const allowed = ['https://localhost:8443/x', 'https://127.0.0.1/x', 'https://[::1]/x', 'https://10.0.0.1/x', 'https://loopback.example.com/x', 'https://ula.example.com/x', 'https://cgnat.example.com/x'];
    for (const url of allowed) {
      it(`allows ${url}`, async () => assert.equal((await checkUrlTarget(url, relaxed, fakeDns)).ok, true));
    }
    const stillRefused: Array<[string, RejectionReason]> = [
      ['http://localhost/x', 'scheme'],
      ['https://u:p@localhost/x', 'credentials'],
      ['https://service.internal/x', 'internal'],
      ['https://multicast.example.com/x', 'private-address'],
      ['https://[ff02::1]/x', 'private-address'],
      ['https://0.0.0.0/x', 'private-address'],
    ];
    for (const [url, reason] of stillRefused) {
      it(`still refuses ${url} as ${reason}`, async () => {
        const checked = await checkUrlTarget(url, relaxed, fakeDns);
        assert.equal(checked.ok ? 'accepted' : checked.reason, reason);
      });
    }
  });

  it('parses every IPv4 notation to a literal before any DNS', () => {
    for (const host of ['2130706433', '017700000001', '0x7f.0.0.1', '127.0.1', '0x7f.1']) {
      const checked = checkUrlStatic(`https://${host}/`, strict);
      assert.deepEqual(checked, { ok: false, reason: 'ip-literal' }, host);
    }
  });

  it('classifies addresses', () => {
    const cases: Array<[string, string | undefined]> = [
      ['93.184.216.34', undefined],
      ['2606:4700:4700::1111', undefined],
      ['::ffff:93.184.216.34', undefined],
      ['64:ff9b::5db8:d822', undefined], // NAT64 of a public address is public
      ['127.255.255.254', 'loopback'],
      ['172.31.255.255', 'private'],
      ['172.32.0.1', undefined],
      ['100.127.255.255', 'cgnat'],
      ['100.128.0.1', undefined],
      ['198.18.0.1', 'reserved'],
      ['255.255.255.255', 'broadcast'],
      ['::', 'unspecified'],
      ['::ffff:192.168.0.1', 'private'],
      ['64:ff9b::10.0.0.1', 'private'],
      ['64:ff9b:1::1', 'private'],
      ['fc00::1', 'unique-local'],
      ['ff05::2', 'multicast'],
      ['2001:db8::1', 'documentation'],
      ['2001::1', 'reserved'],
      ['::127.0.0.1', 'reserved'],
      ['fe80::1%eth0', 'link-local'],
    ];
    for (const [address, cls] of cases) assert.equal(classifyAddress(address), cls, address);
  });
});

describe('isLocalUrl (the tracker snippet’s warning)', () => {
  it('is true for localhost, intranet names and addresses that are not public', () => {
    for (const url of ['http://127.0.0.1:8000', 'http://localhost:8000', 'http://app.localhost', 'http://[::1]:8000', 'http://10.0.0.5', 'http://192.168.1.20:8000', 'http://svc', 'http://stats.internal', 'http://nas.local', 'http://0.0.0.0:8000']) {
      assert.equal(isLocalUrl(new URL(url)), true, url);
    }
  });
  it('is false for public names and addresses', () => {
    for (const url of ['https://stats.example.com', 'http://93.184.216.34:8000', 'https://[2606:4700::1111]']) assert.equal(isLocalUrl(new URL(url)), false, url);
  });
});
