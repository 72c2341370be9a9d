// Bot detection, measured: the User-Agent check (isbot) against the crawler strings shipped by
// `crawler-user-agents` and the browser strings of `top-user-agents`, and the reviewed hosting-ASN
// list (src/ingest/data/hosting-asns.json) against address ranges of @ip-location-db/asn.
// The figures printed here are the ones recorded in docs/bots.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import crawlers from 'crawler-user-agents';
import topAll from 'top-user-agents';
import { HostingNetworks, isBotUserAgent } from '../../src/ingest/bots.js';
import { browserHeaders, createRelayKey, createSite, startTestServer } from '../helpers/server.js';

const require = createRequire(import.meta.url);
const topDesktop = require('top-user-agents/desktop') as string[];
const topMobile = require('top-user-agents/mobile') as string[];
const asnDir = dirname(require.resolve('@ip-location-db/asn/package.json'));
const hostingList = JSON.parse(readFileSync(new URL('../../src/ingest/data/hosting-asns.json', import.meta.url), 'utf8')) as {
  asns: Record<string, string>;
};

const pct = (n: number) => `${(n * 100).toFixed(2)} %`;

test('User-Agent check: detection rate over crawler-user-agents, false positives over top-user-agents', () => {
  const botUas = [...new Set((crawlers as Array<{ instances?: string[] }>).flatMap((c) => c.instances ?? []))];
  const browserUas = [...new Set([...(topAll as string[]), ...topDesktop, ...topMobile])];
  assert.ok(botUas.length > 1000, `expected the crawler list to ship >1000 instances, got ${botUas.length}`);
  assert.ok(browserUas.length >= 50, `expected >=50 browser UAs, got ${browserUas.length}`);

  const missed = botUas.filter((ua) => !isBotUserAgent(ua));
  const flagged = browserUas.filter((ua) => isBotUserAgent(ua));
  const detection = 1 - missed.length / botUas.length;
  const falsePositive = flagged.length / browserUas.length;

  // Per crawler entry too: an entry counts as detected when all its instances are.
  const entries = (crawlers as Array<{ pattern: string; instances?: string[] }>).filter((c) => (c.instances ?? []).length > 0);
  const entriesDetected = entries.filter((c) => c.instances!.every((ua) => isBotUserAgent(ua))).length;

  console.log(`[bots] crawler-user-agents: ${botUas.length} distinct instances, detected ${botUas.length - missed.length} (${pct(detection)})`);
  console.log(`[bots] crawler entries with instances: ${entries.length}, fully detected ${entriesDetected} (${pct(entriesDetected / entries.length)})`);
  console.log(`[bots] top-user-agents: ${browserUas.length} distinct browser UAs, flagged ${flagged.length} (${pct(falsePositive)})`);
  for (const ua of missed) console.log(`[bots]   missed: ${ua}`);
  for (const ua of flagged) console.log(`[bots]   false positive: ${ua}`);

  // Thresholds: the misses are in-app browsers (Instagram, Facebook), Electron apps and a few
  // monitoring tools that mimic Chrome exactly; anything under 97 % means isbot regressed.
  // A false positive costs a real visitor on every page: one in a hundred top browsers is the most
  // we tolerate (we measured none).
  assert.ok(detection >= 0.97, `detection ${pct(detection)} below 97 %`);
  assert.ok(falsePositive <= 0.01, `false positives ${pct(falsePositive)} above 1 %: ${flagged.join(' | ')}`);
});

test('User-Agent check: empty, blank and missing UAs are bots; common browsers are not', () => {
  for (const ua of [undefined, null, '', '   ', '\t']) assert.equal(isBotUserAgent(ua), true, JSON.stringify(ua));
  for (const ua of ['curl/8.5.0', 'python-requests/2.31.0', 'Googlebot/2.1 (+http://www.google.com/bot.html)', 'HeadlessChrome/124.0.0.0']) {
    assert.equal(isBotUserAgent(ua), true, ua);
  }
  assert.equal(
    isBotUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'),
    false,
  );
  assert.equal(isBotUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'), false);
});

// ---- Hosting networks ----

type Range = { start: bigint; end: bigint; asn: number };

/** Ranges of the given ASNs in one of the @ip-location-db/asn number CSVs. */
async function rangesOf(file: string, wanted: Set<number>): Promise<Map<number, Range[]>> {
  const out = new Map<number, Range[]>();
  const lines = createInterface({ input: createReadStream(join(asnDir, file)), crlfDelay: Infinity });
  for await (const line of lines) {
    const [start, end, asnText] = line.split(',', 3);
    const asn = Number(asnText);
    if (!wanted.has(asn)) continue;
    const list = out.get(asn) ?? [];
    list.push({ start: BigInt(start!), end: BigInt(end!), asn });
    out.set(asn, list);
  }
  return out;
}

const v4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
const v6Text = (n: bigint) =>
  Array.from({ length: 8 }, (_, i) => ((n >> BigInt((7 - i) * 16)) & 0xffffn).toString(16)).join(':');
const mid = (r: Range) => r.start + (r.end - r.start) / 2n;

const HOSTING_SAMPLE = [16509, 14618, 396982, 8075, 14061, 16276, 24940, 63949, 20473, 31898];
const CONSUMER = { 7922: 'Comcast', 3320: 'Deutsche Telekom', 3215: 'Orange', 701: 'Verizon', 5089: 'Virgin Media' } as Record<number, string>;

test('hosting list: addresses inside ranges of listed ASNs are flagged, consumer ISPs are not (IPv4 and IPv6)', async () => {
  const hosting = HostingNetworks.load();
  for (const asn of HOSTING_SAMPLE) assert.ok(hostingList.asns[String(asn)], `AS${asn} is expected in hosting-asns.json`);
  for (const asn of Object.keys(CONSUMER)) assert.equal(hostingList.asns[asn], undefined, `consumer AS${asn} must not be listed`);

  const wanted = new Set([...HOSTING_SAMPLE, ...Object.keys(CONSUMER).map(Number)]);
  const [v4, v6] = await Promise.all([rangesOf('asn-ipv4-num.csv', wanted), rangesOf('asn-ipv6-num.csv', wanted)]);

  let checked = 0;
  for (const asn of HOSTING_SAMPLE) {
    const ranges = v4.get(asn) ?? [];
    assert.ok(ranges.length > 0, `AS${asn} has IPv4 ranges in the ASN database`);
    // First, middle and last range; first, middle and last address of each.
    for (const r of [ranges[0]!, ranges[ranges.length >> 1]!, ranges[ranges.length - 1]!]) {
      for (const n of [r.start, mid(r), r.end]) {
        assert.equal(hosting.hostingAsnOf(v4Text(n)), asn, `${v4Text(n)} (AS${asn} ${hostingList.asns[asn]})`);
        checked++;
      }
    }
    assert.equal(hosting.isHostingAsn(asn), true);
  }
  for (const asn of [16509, 396982, 8075, 14061, 24940]) {
    const ranges = v6.get(asn) ?? [];
    assert.ok(ranges.length > 0, `AS${asn} has IPv6 ranges`);
    for (const r of [ranges[0]!, ranges[ranges.length - 1]!]) {
      for (const n of [r.start, mid(r), r.end]) {
        assert.equal(hosting.hostingAsnOf(v6Text(n)), asn, `${v6Text(n)} (AS${asn})`);
        checked++;
      }
    }
  }

  for (const [asnText, name] of Object.entries(CONSUMER)) {
    const asn = Number(asnText);
    for (const [family, table, text] of [
      ['IPv4', v4, v4Text],
      ['IPv6', v6, v6Text],
    ] as const) {
      const ranges = table.get(asn) ?? [];
      assert.ok(ranges.length > 0, `${name} AS${asn} has ${family} ranges`);
      const step = Math.max(1, Math.floor(ranges.length / 25));
      for (let i = 0; i < ranges.length; i += step) {
        const r = ranges[i]!;
        for (const n of [r.start, mid(r), r.end]) {
          assert.equal(hosting.hostingAsnOf(text(n)), null, `${text(n)} of ${name} AS${asn} must not be a hosting address`);
          checked++;
        }
      }
    }
  }
  // Well-known addresses, by hand.
  assert.equal(hosting.hostingAsnOf('8.8.8.8'), null, 'Google Public DNS is AS15169, not Google Cloud');
  assert.equal(hosting.hostingAsnOf('1.1.1.1'), null, 'Cloudflare (WARP users) is deliberately absent');
  assert.equal(hosting.hostingAsnOf('127.0.0.1'), null);
  assert.equal(hosting.hostingAsnOf('not an ip'), null);
  assert.equal(hosting.hostingAsnOf(''), null);
  console.log(`[bots] hosting list: ${Object.keys(hostingList.asns).length} ASNs; ${checked} addresses checked`);
});

test('end to end: an event relayed with an AWS client address is dropped as bot_datacenter', async () => {
  const server = await startTestServer();
  try {
    const site = await createSite(server);
    const relayKey = await createRelayKey(server);
    const aws = (await rangesOf('asn-ipv4-num.csv', new Set([16509]))).get(16509)!;
    const awsIp = v4Text(mid(aws[aws.length >> 1]!));
    const comcast = (await rangesOf('asn-ipv4-num.csv', new Set([7922]))).get(7922)!;
    const homeIp = v4Text(mid(comcast[0]!));
    const drops = server.ctx.ingest.drops;
    const before = drops.droppedFor('bot_datacenter');
    const acceptedBefore = drops.acceptedFor('collect');

    const event = { s: site.siteId, u: '/from-aws' };
    assert.equal(
      await server.collect(event, browserHeaders(site.domain, { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': awsIp })),
      202,
    );
    // Same relay, consumer address: accepted.
    assert.equal(
      await server.collect({ s: site.siteId, u: '/from-home' }, browserHeaders(site.domain, { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': homeIp })),
      202,
    );
    // Relay headers without a valid key are ignored: the socket address (loopback) is used.
    assert.equal(
      await server.collect({ s: site.siteId, u: '/forged' }, browserHeaders(site.domain, { 'x-svc-relay-key': 'wrong', 'x-svc-client-ip': awsIp })),
      202,
    );
    // The relay's own ASN, when given, replaces the lookup.
    assert.equal(
      await server.collect(
        { s: site.siteId, u: '/asn-header' },
        browserHeaders(site.domain, { 'x-svc-relay-key': relayKey, 'x-svc-client-ip': homeIp, 'x-svc-client-asn': 'AS16509' }),
      ),
      202,
    );

    // An event may still be in the pipeline after its 202 (a first look-up): flush waits for all of
    // them, the dropped ones too (waiting for the two accepted ones did not).
    await server.flush();
    assert.equal(drops.acceptedFor('collect') - acceptedBefore, 2);
    assert.equal(drops.droppedFor('bot_datacenter') - before, 2);
    const pages = (await server.storedEvents(site.siteId)).map((e) => e.page).sort();
    assert.deepEqual(pages, ['/forged', '/from-home']);
  } finally {
    await server.stop();
  }
});
