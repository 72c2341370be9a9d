// The request log never holds an invitation's token: the process logger's serializers take it out of
// every logged URL, for the page and for its /app/v1 endpoints.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import { redactSecrets, requestLogSerializers } from '../../src/http/request-log.js';
import { startTestServer } from '../helpers/server.js';

test('the segment after /invitations/ is logged as [secret]; other URLs are kept', () => {
  const cases: [string, string][] = [
    ['/invitations/k3J9-abc_DEF', '/invitations/[secret]'],
    ['/invitations/k3J9?x=1', '/invitations/[secret]?x=1'],
    ['/app/v1/invitations/k3J9/accept', '/app/v1/invitations/[secret]/accept'],
    ['/app/v1/invitations/k3J9/account', '/app/v1/invitations/[secret]/account'],
    ['/app/v1/manage/orgs/1/invitations', '/app/v1/manage/orgs/1/invitations'],
    ['/app/v1/manage/orgs/1/invitations/7', '/app/v1/manage/orgs/1/invitations/[secret]'],
    ['/v1/sites/abc/breakdown?dimension=page&search=invitations', '/v1/sites/abc/breakdown?dimension=page&search=invitations'],
    ['/login?next=%2Finvitations%2Fk3J9-abc', '/login?next=%2Finvitations%2F[secret]'],
    ['/login?next=%2finvitations%2fk3J9&x=1', '/login?next=%2finvitations%2f[secret]&x=1'],
  ];
  for (const [url, logged] of cases) assert.equal(redactSecrets(url), logged, url);
});

test('a service with the process logger logs no invitation token', async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const server = await startTestServer({ logger: pino({ level: 'info', serializers: requestLogSerializers }, sink) });
  try {
    const token = 'Zm9vYmFyLXNlY3JldC10b2tlbi1vZi00My1jaGFycw';
    for (const path of [`/invitations/${token}`, `/app/v1/invitations/${token}`, `/login?next=${encodeURIComponent(`/invitations/${token}`)}`]) await fetch(`${server.url}${path}`);
    const logged = lines.join('');
    assert.match(logged, /\/invitations\/\[secret\]/, 'the requests are logged');
    assert.ok(!logged.includes(token), 'the token is not');
  } finally {
    await server.stop();
  }
});
