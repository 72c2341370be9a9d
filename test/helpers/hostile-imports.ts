// Hostile import files an admin could upload (docs/security.md#imports): a Plausible CSV whose header
// holds one quoted field of thousands of lines, and ZIP archives whose central directory lists one
// compressed stream many times.
import { crc32 } from 'node:zlib';
import { CENTRAL, CENTRAL_HEADER, END_OF_DIRECTORY, EOCD, LOCAL, LOCAL_HEADER } from '../../src/imports/zip.js';
import { zipOf, type ExportFiles } from './plausible-export.js';

/** The name Plausible gives the visitors table of January 2025. */
export const VISITORS_FILE = 'imported_visitors_20250101_20250131.csv';
const VISITORS_HEADER = 'date,visitors,pageviews,bounces,visits,visit_duration';

/**
 * Plausible's visitors table whose header holds one more column: a quoted field of `lines` lines of
 * `""` (an escaped quote), 63 KB for 21 000 lines, just under the record limit.
 */
export function quotedHeaderCsv(lines = 21_000): string {
  return `${VISITORS_HEADER},"${'""\n'.repeat(lines)}"\n2025-01-01,10,30,6,12,600,x\n`;
}

/** Plausible's visitors table of `rows` lines in January 2025, with varied counts (deflate shrinks it about 4 times). */
export function visitorsCsv(rows: number): string {
  const lines = [VISITORS_HEADER];
  let seed = 1;
  const next = (max: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % max;
  };
  for (let i = 0; i < rows; i++) lines.push(`2025-01-${String(1 + (i % 31)).padStart(2, '0')},${next(100)},${next(400)},${next(50)},${next(120)},${next(9_000)}`);
  return lines.join('\n') + '\n';
}

/**
 * A ZIP whose one entry, `name` holding `text`, is listed `copies` times by its central directory
 * (as `copy-NN/<name>`): every listing points at the same local header and compressed bytes.
 */
export async function repeatedEntryZip(name: string, text: string, copies: number): Promise<Buffer> {
  const honest = await zipOf({ [name]: text });
  const end = honest.length - END_OF_DIRECTORY;
  const directoryOffset = honest.readUInt32LE(end + 16);
  const record = honest.subarray(directoryOffset, end);
  if (record.readUInt32LE(0) !== CENTRAL) throw new Error('the honest archive has no central directory where its end says');
  const listings: Buffer[] = [];
  for (let copy = 0; copy < copies; copy++) {
    const listedName = Buffer.from(`copy-${String(copy).padStart(2, '0')}/${name}`, 'utf8');
    const header = Buffer.from(record.subarray(0, CENTRAL_HEADER));
    header.writeUInt16LE(listedName.length, 28);
    listings.push(header, listedName);
  }
  const directory = Buffer.concat(listings);
  const tail = Buffer.from(honest.subarray(end));
  tail.writeUInt16LE(copies, 8);
  tail.writeUInt16LE(copies, 10);
  tail.writeUInt32LE(directory.length, 12);
  return Buffer.concat([honest.subarray(0, directoryOffset), directory, tail]);
}

/**
 * A ZIP of two entries, `a/<name>` and `b/<name>`, whose local headers do not overlap but whose data
 * is one stream: the first header's name field runs over the second header, to the second's data.
 */
export async function hiddenShareZip(name: string, text: string): Promise<Buffer> {
  const honest = await zipOf({ [name]: text });
  const end = honest.length - END_OF_DIRECTORY;
  const directoryOffset = honest.readUInt32LE(end + 16);
  const record = honest.subarray(directoryOffset, end);
  const honestNameLength = honest.readUInt16LE(26);
  const compressedSize = record.readUInt32LE(20);
  const data = honest.subarray(LOCAL_HEADER + honestNameLength, directoryOffset); // the compressed bytes and their descriptor
  const secondName = Buffer.from(`b/${name}`, 'utf8');
  // The second header starts right where the first one's span (its fixed header and data size) ends.
  const second = LOCAL_HEADER + compressedSize;
  const local = Buffer.alloc(second + LOCAL_HEADER + secondName.length);
  honest.copy(local, 0, 0, LOCAL_HEADER);
  local.writeUInt16LE(local.length - LOCAL_HEADER, 26); // the first "name": all up to the shared data
  honest.copy(local, second, 0, LOCAL_HEADER);
  local.writeUInt16LE(secondName.length, second + 26);
  secondName.copy(local, second + LOCAL_HEADER);
  const listing = (listedName: string, offset: number) => {
    const nameBytes = Buffer.from(listedName, 'utf8');
    const header = Buffer.from(record.subarray(0, CENTRAL_HEADER));
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt32LE(offset, 42);
    return Buffer.concat([header, nameBytes]);
  };
  const directory = Buffer.concat([listing(`a/${name}`, 0), listing(`b/${name}`, second)]);
  const tail = Buffer.from(honest.subarray(end));
  tail.writeUInt16LE(2, 8);
  tail.writeUInt16LE(2, 10);
  tail.writeUInt32LE(directory.length, 12);
  tail.writeUInt32LE(local.length + data.length, 16);
  return Buffer.concat([local, data, directory, tail]);
}

/**
 * A ZIP of `files` stored without compression: text that deflates past the ratio an archive may
 * have (a quoted field of `""` lines) is taken this way, byte for byte.
 */
export function storedZipOf(files: ExportFiles): Buffer {
  const locals: Buffer[] = [];
  const listings: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const local = Buffer.alloc(LOCAL_HEADER);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // the name in UTF-8; method 0 (stored)
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const listing = Buffer.alloc(CENTRAL_HEADER);
    listing.writeUInt32LE(CENTRAL, 0);
    listing.writeUInt16LE(20, 4);
    listing.writeUInt16LE(20, 6);
    local.copy(listing, 8, 6, 26); // flags, method, time, date, CRC and sizes, as the local header has them
    listing.writeUInt16LE(nameBytes.length, 28);
    listing.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    listings.push(listing, nameBytes);
    offset += LOCAL_HEADER + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(listings);
  const end = Buffer.alloc(END_OF_DIRECTORY);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(listings.length / 2, 8);
  end.writeUInt16LE(listings.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
