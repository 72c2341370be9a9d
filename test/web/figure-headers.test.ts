// The figure headers of a site read (Svc-Imported, Svc-Counted-Since, Svc-Raw-Window) travel with
// its answer: two reads of one path side by side, whose answers arrive interleaved, each keep their
// own. A real HTTP server answers the dashboard's client in Node; only the page's origin is supplied.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readNoted } from '../../web/lib/site.js';
import { COUNTED_SINCE_HEADER, IMPORTED_HEADER, RAW_WINDOW_HEADER } from '../../src/core/answer-headers.js';

describe('figure headers', () => {
  /** The requests of the stats path as they arrive, answered by the test. */
  const waiting: ServerResponse[] = [];
  let arrived: () => void = () => undefined;
  const server = createServer((_request, response) => {
    waiting.push(response);
    arrived();
  });
  const nextRequest = () => new Promise<ServerResponse>((resolve) => {
    if (waiting.length > 0) return resolve(waiting.shift()!);
    arrived = () => resolve(waiting.shift()!);
  });
  const pageFetch = globalThis.fetch;

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    globalThis.fetch = (input, init) => pageFetch(new URL(String(input), origin), init);
  });
  after(() => {
    globalThis.fetch = pageFetch;
    server.close();
  });

  test("two overlapping reads of one path keep their own answer's headers", async () => {
    const read = { path: '/stats', params: new URLSearchParams({ period: 'year', filter: 'country:FR' }) };
    // The first answer's headers come, its body waits until the second answer has come whole.
    const first = readNoted<{ visitors: number }>('site', read);
    const firstResponse = await nextRequest();
    firstResponse.writeHead(200, {
      'content-type': 'application/json',
      [IMPORTED_HEADER]: 'excluded',
      [RAW_WINDOW_HEADER]: 'clipped; from=2025-01-01',
      [COUNTED_SINCE_HEADER]: 'conversions=2025-06-01',
    });
    firstResponse.write('{"visitors":');
    const second = readNoted<{ visitors: number }>('site', read);
    (await nextRequest()).writeHead(200, { 'content-type': 'application/json', [IMPORTED_HEADER]: 'included' }).end('{"visitors":2}');
    const secondAnswer = await second;
    firstResponse.end('1}');
    const firstAnswer = await first;

    assert.deepEqual(
      { visitors: firstAnswer.visitors, imported: firstAnswer.imported, clipped: firstAnswer.clippedToRawWindow, since: [...firstAnswer.countedSince] },
      { visitors: 1, imported: 'excluded', clipped: true, since: [['conversions', '2025-06-01']] },
    );
    assert.deepEqual(
      { visitors: secondAnswer.visitors, imported: secondAnswer.imported, clipped: secondAnswer.clippedToRawWindow, since: [...secondAnswer.countedSince] },
      { visitors: 2, imported: 'included', clipped: false, since: [] },
    );
  });
});
