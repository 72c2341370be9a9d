// The same HTTP scenario (test/scaleout/scenario.ts) against the embedded profile (SQLite and DuckDB
// in the data folder) and the scale-out profile (PostgreSQL, a private ClickHouse, Redis): every
// answer of /v1 is the same, byte for byte once parsed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/core/clock.js';
import { clickhouseServer, freshDatabaseUrl } from '../../support/clickhouse.js';
import { TEST_REDIS_URL, testKeyPrefix } from '../../support/counters.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NOW, runScenario, type ScenarioAnswers } from './scenario.js';

const LIMITS = { SVC_API_RATE_LIMIT: '1000000/60s', SVC_COLLECT_RATE_LIMIT: '1000000/60s' };

let database: TestDatabase;
const servers: TestServer[] = [];

/** The scenario's answers, and the lines of svc_counter_fallbacks_total (calls Redis did not answer) at its end. */
async function answersOf(env: Record<string, string>, counterKeyPrefix?: string): Promise<ScenarioAnswers & { fallbacks: string[] }> {
  const clock = new ManualClock(NOW);
  const server = await startTestServer({ clock, env: { ...LIMITS, ...env }, counterKeyPrefix });
  servers.push(server);
  const answers = await runScenario(server, clock);
  const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })).text();
  return { ...answers, fallbacks: metrics.split('\n').filter((l) => /^svc_counter_fallbacks_total\{.*\} [1-9]/.test(l)) };
}

let embedded: ScenarioAnswers;
let scaleOut: ScenarioAnswers & { fallbacks: string[] };

before(async () => {
  database = await createTestDatabase();
  embedded = await answersOf({});
  scaleOut = await answersOf({ SVC_DATABASE_URL: database.url, SVC_CLICKHOUSE_URL: await freshDatabaseUrl(), SVC_REDIS_URL: TEST_REDIS_URL }, testKeyPrefix());
});

after(async () => {
  for (const server of servers) await server.stop();
  await database?.drop();
  // The server is a child process of this one: stopping it lets the test process end.
  await (await clickhouseServer()).stop();
});

test('both profiles store the same number of events per site', () => {
  assert.ok(Object.values(embedded.stored).every((n) => n > 1000), JSON.stringify(embedded.stored));
  assert.deepEqual(scaleOut.stored, embedded.stored);
});

test('the scale-out profile kept its live sessions and rate limits in Redis throughout (no fallback)', () => {
  assert.deepEqual(scaleOut.fallbacks, []);
});

test('the scenario reads answers with data, not only errors', () => {
  const statuses = [...embedded.answers.values()].map((a) => (a as { status: number }).status);
  assert.ok(statuses.length > 500, `${statuses.length} reads`);
  assert.ok(statuses.filter((s) => s === 200).length > statuses.length * 0.9, 'most reads answer 200');
});

test('every /v1 answer of the scale-out profile equals the embedded profile\'s', () => {
  assert.deepEqual([...scaleOut.answers.keys()], [...embedded.answers.keys()]);
  const differences: string[] = [];
  for (const [request, expected] of embedded.answers) {
    try {
      assert.deepStrictEqual(scaleOut.answers.get(request), expected);
    } catch (err) {
      differences.push(`${request}\n${(err as Error).message.split('\n').slice(0, 40).join('\n')}`);
    }
  }
  assert.equal(differences.length, 0, `${differences.length} of ${embedded.answers.size} answers differ:\n\n${differences.slice(0, 8).join('\n\n')}`);
});
