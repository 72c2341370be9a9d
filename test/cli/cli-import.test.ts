// `svc import` end to end: files read and sent in calls, and the answers of a server that refuses
// some of them (a stand-in HTTP server), through the CLI run as a child process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { BROWSER_UA } from '../helpers/server.js';
import { field, ok, scratch, server, startCliServer, svc, uniqueDomain } from './cli-harness.js';

startCliServer();

describe('import', { concurrency: true }, () => {
  test('streams an NDJSON file and prints the summary with the first errors', async () => {
    const org = await server.admin('POST', '/orgs', { name: 'Import org' });
    const site = await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain: uniqueDomain(), name: 'I', timezone: 'UTC' });
    const siteId: string = site.body.id;
    const day = Date.UTC(2026, 2, 3);
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      lines.push(JSON.stringify({ ts: day + i * 20_000, ua: BROWSER_UA, ip: `10.0.${(i >> 8) & 255}.${i & 255}`, u: `/page/${i % 7}` }));
    }
    lines.splice(10, 0, '{not json');
    lines.splice(20, 0, JSON.stringify({ ts: 'yesterday', ua: BROWSER_UA, u: '/' }));
    const file = join(scratch, 'events.ndjson');
    writeFileSync(file, lines.join('\n') + '\n');

    const run = ok(await svc(['import', file, '--site', siteId]));
    assert.equal(field(run.stdout, 'accepted'), '3000');
    assert.equal(field(run.stdout, 'rejected'), '2');
    assert.match(run.stdout, /first errors:\nLINE\s+REASON\n11\s+\S.*\n21\s+\S.*\n$/);
    assert.equal(run.stderr, '', 'no progress bar when stderr is not a terminal');
    assert.equal((await server.storedEvents(siteId)).length, 3000);

    const small = join(scratch, 'small.ndjson');
    writeFileSync(small, JSON.stringify({ ts: day, ua: BROWSER_UA, ip: '203.0.113.9', u: '/x' }) + '\n');
    const json = JSON.parse(ok(await svc(['import', small, '--site', siteId, '--json'])).stdout);
    assert.deepEqual(json, { accepted: 1, rejected: 0, errors: [] });
    assert.equal((await server.storedEvents(siteId)).length, 3001);

    const piped = ok(await svc(['import', '-', '--site', siteId], {}, JSON.stringify({ ts: day + 5, ua: BROWSER_UA, ip: '203.0.113.9', u: '/y' }) + '\n'));
    assert.equal(piped.stdout, 'accepted  1\nrejected  0\n');
    assert.equal((await server.storedEvents(siteId)).length, 3002);
  });

  test('a missing file or site is explained in one line', async () => {
    const missing = await svc(['import', join(scratch, 'nope.ndjson'), '--site', 'x']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^svc: cannot read .*nope\.ndjson: no such file\n$/);
    const file = join(scratch, 'one.ndjson');
    writeFileSync(file, '{}\n');
    const noSite = await svc(['import', file, '--site', 'no-such-site']);
    assert.equal(noSite.code, 1);
    assert.equal(noSite.stderr, 'svc: NOT_FOUND: site not found\n');
  });
});

describe('import of a file over a call', { concurrency: true }, () => {
  // Three New York days of 20 lines: ten visitors, each twice a day (an hour apart, so sessions of
  // their own), never near midnight; line 25 is broken.
  const NEW_YORK_NOON = Date.UTC(2026, 2, 3, 17);
  const linesOfThreeDays = () => {
    const lines: string[] = [];
    for (let d = 0; d < 3; d++) {
      for (let i = 0; i < 20; i++) {
        const visitor = i % 10;
        const ts = NEW_YORK_NOON + d * 86_400_000 + (i >= 10 ? 3_600_000 : 0) + visitor * 60_000;
        lines.push(JSON.stringify({ ts, ua: BROWSER_UA, ip: `203.0.113.${visitor + 1}`, u: `/day/${d}` }));
      }
    }
    lines[24] = '{broken';
    return lines;
  };
  const newSite = async (name: string) => {
    const org = await server.admin('POST', '/orgs', { name });
    const site = await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain: uniqueDomain(), name, timezone: 'America/New_York' });
    return site.body.id as string;
  };
  /** Per local day: events, visitors, sessions. */
  const figures = async (siteId: string) => {
    const byDay = new Map<string, { events: number; visitors: Set<string>; sessions: Set<string> }>();
    for (const e of await server.storedEvents(siteId)) {
      const day = byDay.get(e.local_day) ?? { events: 0, visitors: new Set(), sessions: new Set() };
      day.events++;
      day.visitors.add(String(e.visitor_id));
      day.sessions.add(String(e.session_id));
      byDay.set(e.local_day, day);
    }
    return [...byDay].sort().map(([day, f]) => ({ day, events: f.events, visitors: f.visitors.size, sessions: f.sessions.size }));
  };

  test('goes in calls cut at the site-local midnights, with the figures of one call', async () => {
    const file = join(scratch, 'three-days.ndjson');
    writeFileSync(file, linesOfThreeDays().join('\n') + '\n');
    const [split, whole] = [await newSite('Split'), await newSite('Whole')];

    const run = ok(await svc(['import', file, '--site', split, '--lines-per-call', '45']));
    assert.equal(field(run.stdout, 'accepted'), '59');
    assert.equal(field(run.stdout, 'calls'), "2 (cut at the site's midnights)");
    assert.match(run.stdout, /first errors:\nLINE\s+REASON\n25\s+bad_json\n/, 'line numbers are the file\'s');
    ok(await svc(['import', file, '--site', whole]));
    const expected = ['2026-03-03', '2026-03-04', '2026-03-05'].map((day, d) => ({ day, events: d === 1 ? 19 : 20, visitors: 10, sessions: d === 1 ? 19 : 20 }));
    assert.deepEqual(await figures(whole), expected);
    assert.deepEqual(await figures(split), expected, 'visitors, sessions and events as in one call');

    const again = await newSite('Json');
    const json = JSON.parse(ok(await svc(['import', file, '--site', again, '--lines-per-call', '20', '--json'])).stdout);
    assert.deepEqual(json, {
      accepted: 59,
      rejected: 1,
      errors: [{ line: 25, reason: 'bad_json' }],
      calls: [
        { firstLine: 1, lastLine: 20, accepted: 20, rejected: 0 },
        { firstLine: 21, lastLine: 40, accepted: 19, rejected: 1 },
        { firstLine: 41, lastLine: 60, accepted: 20, rejected: 0 },
      ],
    });
  });

  test('--from-line resumes; files that cannot be split are refused before anything is sent', async () => {
    const lines = linesOfThreeDays();
    const file = join(scratch, 'resume.ndjson');
    writeFileSync(file, lines.join('\n') + '\n');
    const siteId = await newSite('Resume');
    const resumed = JSON.parse(ok(await svc(['import', file, '--site', siteId, '--from-line', '21', '--json'])).stdout);
    assert.deepEqual(resumed, { accepted: 39, rejected: 1, errors: [{ line: 25, reason: 'bad_json' }] });
    assert.deepEqual((await figures(siteId)).map((f) => f.day), ['2026-03-04', '2026-03-05']);
    const midDay = await svc(['import', file, '--site', siteId, '--from-line', '30']);
    assert.equal(midDay.code, 1);
    assert.match(midDay.stderr, /^svc: --from-line 30 would split a site-local day/);

    // Whole days in another order can still be cut; days interleaved cannot.
    const reordered = join(scratch, 'reordered.ndjson');
    writeFileSync(reordered, [...lines.slice(40), ...lines.slice(0, 40)].join('\n') + '\n');
    const reorderedSite = await newSite('Reordered');
    assert.equal(field(ok(await svc(['import', reordered, '--site', reorderedSite, '--lines-per-call', '30'])).stdout, 'calls'), "3 (cut at the site's midnights)");
    assert.deepEqual((await figures(reorderedSite)).map((f) => f.visitors), [10, 10, 10]);
    const interleaved = join(scratch, 'interleaved.ndjson');
    writeFileSync(interleaved, [...lines.slice(0, 20).flatMap((line, i) => [line, lines[20 + i]!]), ...lines.slice(40)].join('\n') + '\n');
    const refusedSite = await newSite('Refused');
    const refused = await svc(['import', interleaved, '--site', refusedSite, '--lines-per-call', '30']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^svc: lines 1-30 hold no place to end a call without putting a site-local day in two calls \(2026-03-0[34] runs from line \d+ to \d+\).*sort the file by ts first\n$/);
    const crowded = await svc(['import', file, '--site', refusedSite, '--lines-per-call', '19']);
    assert.equal(crowded.code, 1);
    assert.match(crowded.stderr, /^svc: lines 1-19 hold no place .*one day has more than 19 lines/);
    assert.equal((await server.storedEvents(refusedSite)).length, 0);

    const usage = await svc(['import', '-', '--site', siteId, '--from-line', '2'], {}, '');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--from-line and --lines-per-call need a FILE/);
  });

  // Servers whose second import call fails: real listening ones, standing in for an outage.
  for (const { name, fail, expected } of [
    {
      name: 'a refusal (an envelope below 500): the call stored nothing',
      fail: (res: ServerResponse) => answer(res, 413, { error: { code: 'PAYLOAD_TOO_LARGE', message: 'too big' } }),
      expected: 'PAYLOAD_TOO_LARGE: too big; lines 1-20 are stored; nothing from line 21 on was stored: to go on, run the same command with --from-line 21',
    },
    {
      name: 'a server error: whether the call was stored is not known',
      fail: (res: ServerResponse) => answer(res, 503, { error: { code: 'UNAVAILABLE', message: 'storage is down' } }),
      expected: 'UNAVAILABLE: storage is down; lines 1-20 are stored; whether this call was stored is not known: look at 2026-03-04 to 2026-03-04 before running the same command with --from-line 21 (or --from-line 41 if it was stored)',
    },
    {
      name: 'stored events whose rollups failed: the call is stored',
      fail: (res: ServerResponse) => answer(res, 500, { error: { code: 'IMPORT_ROLLUPS_PENDING', message: 'the 19 accepted events are stored, but …' } }),
      expected: 'IMPORT_ROLLUPS_PENDING: the 19 accepted events are stored, but …; lines 1-40 are stored: to go on, run the same command with --from-line 41',
    },
    {
      name: 'a dropped connection: whether the call was stored is not known',
      fail: (res: ServerResponse) => res.socket!.destroy(),
      expected: /^cannot reach svc at .*; lines 1-20 are stored; whether this call was stored is not known: .* --from-line 21 \(or --from-line 41 if it was stored\)$/,
    },
  ]) {
    test(`a call that fails after others were stored, ${name}`, async () => {
      let calls = 0;
      const failing = createHttpServer((req, res) => {
        req.resume();
        req.on('end', () => {
          if (req.url === '/admin/v1/orgs') return answer(res, 200, { orgs: [{ id: 'o1' }] });
          if (req.url === '/admin/v1/orgs/o1/sites') return answer(res, 200, { sites: [{ id: 's1', timezone: 'America/New_York' }] });
          calls++;
          if (calls === 1) return answer(res, 200, { accepted: 20, rejected: 0, errors: [] });
          fail(res);
        });
      });
      await new Promise<void>((ready) => failing.listen(0, '127.0.0.1', ready));
      try {
        const file = join(scratch, `outage-${calls}-${name.length}.ndjson`);
        writeFileSync(file, linesOfThreeDays().join('\n') + '\n');
        const { port } = failing.address() as { port: number };
        const run = await svc(['import', file, '--site', 's1', '--lines-per-call', '20'], { SVC_URL: `http://127.0.0.1:${port}` });
        assert.equal(run.code, 1);
        assert.equal(field(run.stdout, 'accepted'), '20', 'what was stored is reported');
        assert.equal(field(run.stdout, 'calls'), "1 of 3 (cut at the site's midnights)");
        const message = run.stderr.replace(/^svc: call 2 of 3 \(lines 21-40\) failed: /, '').replace(/\n$/, '');
        assert.ok(run.stderr.startsWith('svc: call 2 of 3 (lines 21-40) failed: ') && run.stderr.split('\n').length === 2, run.stderr);
        if (typeof expected === 'string') assert.equal(message, expected);
        else assert.match(message, expected);
        assert.equal(calls, 2, 'no call after the failed one');
      } finally {
        failing.close();
      }
    });
  }
});

/** A JSON answer from a stand-in server. */
function answer(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}
