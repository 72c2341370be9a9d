// Extracts the address ranges of the reviewed hosting ASNs from @ip-location-db/asn into a small
// file, so that the service loads a few thousand ranges at start instead of 500 000 CSV lines.
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), '..');
const asnDir = dirname(require.resolve('@ip-location-db/asn/package.json'));
const { asns } = JSON.parse(readFileSync(join(root, 'src/ingest/data/hosting-asns.json'), 'utf8'));
const wanted = new Set(Object.keys(asns));

async function ranges(file) {
  const out = [];
  const lines = createInterface({ input: createReadStream(join(asnDir, file)), crlfDelay: Infinity });
  for await (const line of lines) {
    const [start, end, asn] = line.split(',', 3);
    if (wanted.has(asn)) out.push([start, end, Number(asn)]);
  }
  // Sorted by start, for binary search.
  out.sort((a, b) => (BigInt(a[0]) < BigInt(b[0]) ? -1 : BigInt(a[0]) > BigInt(b[0]) ? 1 : 0));
  return out;
}

const v4 = (await ranges('asn-ipv4-num.csv')).map(([s, e, a]) => [Number(s), Number(e), a]);
const v6 = await ranges('asn-ipv6-num.csv');
const outFile = join(root, 'dist/data/hosting-networks.json');
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify({ v4, v6 }));
console.log(`hosting networks: ${v4.length} IPv4 and ${v6.length} IPv6 ranges of ${wanted.size} ASNs -> ${outFile}`);
