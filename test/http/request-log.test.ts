// The request log never holds an invitation's token: the process logger's serializers take it out of
// every logged URL, for the page and for its /app/v1 endpoints. The log is JSON lines, or one
// readable line per request on a terminal (SVC_LOG_FORMAT chooses).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { loadConfig, type LogFormat } from '../../src/config.js';
import { prettyLogLine, processLogger, redactSecrets, resolveLogFormat } from '../../src/http/request-log.js';
import { startTestServer } from '../helpers/server.js';

/** A sink for the process logger and the lines written to it. */
function sink(): { out: Writable; lines: string[] } {
  const lines: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter((line) => line !== ''));
      done();
    },
  });
  return { out, lines };
}

async function logOf(format: LogFormat, paths: string[]): Promise<string[]> {
  const { out, lines } = sink();
  const server = await startTestServer({ logger: processLogger('info', format, out) });
  try {
    for (const path of paths) await fetch(`${server.url}${path}`);
  } finally {
    await server.stop();
  }
  return lines;
}

test('the segment after /invitations/ is logged as [secret]; other URLs are kept', () => {
  const cases: [string, string][] = [
    ['/invitations/k3J9-abc_DEF', '/invitations/[secret]'],
    ['/invitations/k3J9?x=1', '/invitations/[secret]?x=1'],
    ['/app/v1/invitations/k3J9/accept', '/app/v1/invitations/[secret]/accept'],
    ['/app/v1/invitations/k3J9/account', '/app/v1/invitations/[secret]/account'],
    ['/app/v1/manage/orgs/1/invitations', '/app/v1/manage/orgs/1/invitations'],
    ['/app/v1/manage/orgs/1/invitations/7', '/app/v1/manage/orgs/1/invitations/[secret]'],
    ['/share/k3J9-abc_DEF?embed=1', '/share/[secret]?embed=1'],
    ['/app/v1/share', '/app/v1/share'],
    ['/unsubscribe/3.7.weekly.k3J9-abc_DEF', '/unsubscribe/[secret]'],
    ['/app/v1/manage/sites/abc/shared-links/3', '/app/v1/manage/sites/abc/shared-links/3'],
    ['/v1/sites/abc/breakdown?dimension=page&search=invitations', '/v1/sites/abc/breakdown?dimension=page&search=invitations'],
    ['/login?next=%2Finvitations%2Fk3J9-abc', '/login?next=%2Finvitations%2F[secret]'],
    ['/login?next=%2finvitations%2fk3J9&x=1', '/login?next=%2finvitations%2f[secret]&x=1'],
  ];
  for (const [url, logged] of cases) assert.equal(redactSecrets(url), logged, url);
});

test('a service with the process logger logs no invitation token, in either format', async () => {
  const token = 'Zm9vYmFyLXNlY3JldC10b2tlbi1vZi00My1jaGFycw';
  for (const format of ['json', 'pretty'] as const) {
    const logged = (await logOf(format, [`/invitations/${token}`, `/app/v1/invitations/${token}`, `/login?next=${encodeURIComponent(`/invitations/${token}`)}`])).join('\n');
    assert.match(logged, /\/invitations\/\[secret\]/, `${format}: the requests are logged`);
    assert.ok(!logged.includes(token), `${format}: the token is not`);
  }
});

test('JSON: every line is a JSON record; a completed request names its method, URL and status', async () => {
  const records = (await logOf('json', ['/healthz'])).map((line) => JSON.parse(line));
  const completed = records.find((r) => r.responseTime !== undefined);
  assert.deepEqual(completed.res, { statusCode: 200, method: 'GET', url: '/healthz' });
  assert.equal(typeof completed.time, 'number');
});

test('pretty: one line per request (time, method, path, status, ms); other records by level', async () => {
  const lines = await logOf('pretty', ['/healthz', '/nothing-here']);
  const shown = lines.map((line) => line.replace(/^\d\d:\d\d:\d\d /, '').replace(/ \d+ ms$/, ' n ms'));
  assert.deepEqual(
    shown.filter((line) => !line.startsWith('INFO ')),
    ['GET /healthz 200 n ms', 'GET /nothing-here 404 n ms'],
    lines.join('\n'),
  );
  assert.ok(shown.some((line) => /^INFO Server listening at http:/.test(line)), lines.join('\n'));
  const noon = new Date(2026, 0, 5, 12, 4, 5).getTime();
  assert.equal(prettyLogLine({ level: 40, time: noon, msg: 'SVC_WEBHOOK_ALLOW_PRIVATE is on' }), '12:04:05 WARN SVC_WEBHOOK_ALLOW_PRIVATE is on');
  assert.equal(prettyLogLine({ level: 50, time: noon, msg: 'shutdown failed', err: { message: 'boom', stack: 'Error: boom\n    at x' } }), '12:04:05 ERROR shutdown failed\nError: boom\n    at x');
  assert.equal(prettyLogLine({ level: 30, time: noon, req: { method: 'GET', url: '/' }, msg: 'incoming request' }), '');
});

test('SVC_LOG_FORMAT: json or pretty; unset, pretty on a terminal and JSON otherwise', () => {
  assert.equal(loadConfig({}).logFormat, undefined);
  assert.equal(loadConfig({ SVC_LOG_FORMAT: 'pretty' }).logFormat, 'pretty');
  assert.throws(() => loadConfig({ SVC_LOG_FORMAT: 'yaml' }), /SVC_LOG_FORMAT must be one of json, pretty/);
  assert.equal(resolveLogFormat(undefined, true), 'pretty');
  assert.equal(resolveLogFormat(undefined, false), 'json');
  assert.equal(resolveLogFormat('json', true), 'json');
  assert.equal(resolveLogFormat('pretty', false), 'pretty');
});
