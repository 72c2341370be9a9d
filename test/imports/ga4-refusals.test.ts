// A GA4 import's refusals, through a real server and the local stand-in of Google's endpoints: a
// request that names no property or no usable key answered at once (the key never quoted); Google's
// own refusals (a key it does not know, a property the account cannot read, quota that does not
// come back) failing the job with Google's reason and leaving nothing; availability waited out; a
// job stopped with its process, or taken by another after its process died, failed for want of the
// key; and /app/v1/manage for an organisation's admins and owners only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { GOOGLE_ATTEMPTS } from '../../src/imports/ga4/google.js';
import { GA4_KEY_GONE } from '../../src/imports/service.js';
import { serviceAccountKeyFile } from '../../support/google-stand-in.js';
import { signedInUser } from '../helpers/app-client.js';
import { ga4Property, startGa4Fixture } from '../helpers/ga4-property.js';
import { finishedImport, uploadImport } from '../helpers/import-jobs.js';
import { importTestStores } from '../helpers/import-service.js';
import { createApiKey, createSite, startTestServer } from '../helpers/server.js';

const DAYS = ['2025-04-01', '2025-04-02'];
const PROPERTY = '298765432';

test('GA4 imports refused: the request at once, Google\'s refusals in the job, nothing written', async () => {
  const fixture = await startGa4Fixture({ [PROPERTY]: ga4Property(DAYS) });
  const server = await startTestServer(fixture.server);
  try {
    const site = await createSite(server);
    const key = await createApiKey(server, site.orgId);
    const path = `/sites/${site.siteId}/imports/ga4`;
    const visitors = async () => {
      const res = await fetch(`${server.url}/v1/sites/${site.siteId}/stats?from=2025-04-01&to=2025-04-02`, { headers: { authorization: `Bearer ${key}` } });
      return ((await res.json()) as any).stats.visitors.value;
    };
    const pem = fixture.keyFile.private_key!;

    // The request: refused with what is wrong, the key never quoted.
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const refusals: Array<[string, unknown, number, string, RegExp]> = [
      ['no property', { key: fixture.keyFile }, 400, 'GOOGLE_PROPERTY_INVALID_IMPORT', /property must be the numeric id of a GA4 property/],
      ['a property that is no number', { property: 'G-ABC123', key: fixture.keyFile }, 400, 'GOOGLE_PROPERTY_INVALID_IMPORT', /numeric id/],
      ['no key', { property: PROPERTY }, 400, 'GOOGLE_KEY_INVALID_IMPORT', /key is not a service account key svc can use: none was given/],
      ['a key that is not JSON', { property: PROPERTY, key: pem }, 400, 'GOOGLE_KEY_INVALID_IMPORT', /it is not JSON/],
      ['a key of a user', { property: PROPERTY, key: { ...fixture.keyFile, type: 'authorized_user' } }, 400, 'GOOGLE_KEY_INVALID_IMPORT', /its type is not "service_account"/],
      ['a key without its email', { property: PROPERTY, key: { ...fixture.keyFile, client_email: undefined } }, 400, 'GOOGLE_KEY_INVALID_IMPORT', /it has no client_email/],
      ['a broken private key', { property: PROPERTY, key: { ...fixture.keyFile, private_key: pem.replace(/\n[A-Za-z0-9+/]{20}/, '\n!!!!') } }, 400, 'GOOGLE_KEY_INVALID_IMPORT', /not a readable PEM private key/],
      ['an EC private key', { property: PROPERTY, key: { ...fixture.keyFile, private_key: ecKey } }, 400, 'GOOGLE_KEY_INVALID_IMPORT', /not an RSA key/],
      ['days reversed', { property: PROPERTY, key: fixture.keyFile, from: '2025-04-02', to: '2025-04-01' }, 400, 'REVERSED_INVALID_PERIOD', /from is later than to/],
      ['a day before the Data API', { property: PROPERTY, key: fixture.keyFile, from: '2015-01-01' }, 400, 'DAY_INVALID_PARAMS', /from must be a day YYYY-MM-DD from 2015-08-14/],
      ['an unknown field', { property: PROPERTY, key: fixture.keyFile, token: 'x' }, 400, 'UNKNOWN_FIELD_INVALID_PARAMS', /unknown field "token"/],
    ];
    for (const [what, body, status, reason, message] of refusals) {
      const res = await server.admin('POST', path, body);
      assert.deepEqual([res.status, res.body.error.reason], [status, reason], what);
      assert.match(res.body.error.message, message, what);
      assert.ok(!JSON.stringify(res.body).includes(pem.split('\n')[3]!), `${what}: the key is not quoted`);
    }
    const upload = await uploadImport(server, site.siteId, '{}', 'source=ga4');
    assert.deepEqual([upload.status, upload.body.error.message], [400, 'source must be one of plausible, goatcounter, umami'], 'a GA4 import is no upload');
    assert.deepEqual((await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports, []);

    // Google's refusals fail the job with its reason, and nothing of it stays.
    const failed = async (body: Record<string, unknown>) => {
      const created = await server.admin('POST', path, { property: PROPERTY, key: fixture.keyFile, from: '2025-04-01', to: '2025-04-02', ...body });
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const job = await finishedImport(server, site.siteId, created.body.importId);
      assert.equal(job.status, 'failed');
      assert.equal(await visitors(), 0);
      return job.error as string;
    };
    assert.match(
      await failed({ property: '999' }),
      /^Google denied access to GA4 property 999 \(403 PERMISSION_DENIED: User does not have sufficient permissions for this property\..*\): add svc-import@svc-test-project\.iam\.gserviceaccount\.com as a Viewer of the property/,
    );
    const stranger = serviceAccountKeyFile().file;
    assert.match(await failed({ key: stranger }), /^Google's token endpoint refused the service account key of .* \(400 invalid_grant: Invalid JWT Signature\.\)/);
    assert.deepEqual(fixture.google.refusedAssertions, ['Invalid JWT Signature.']);
    fixture.google.refuse({ status: 429, word: 'RESOURCE_EXHAUSTED', message: 'Exhausted property tokens per hour.', times: GOOGLE_ATTEMPTS });
    assert.match(await failed({}), /^Google's Data API kept refusing for quota, rate or availability \(429 RESOURCE_EXHAUSTED: Exhausted property tokens per hour\.\) after 7 tries over \d+ s: start the import again later/);
    assert.equal(fixture.google.refused, GOOGLE_ATTEMPTS);

    // Unavailability that passes is waited out; a key sent as the file's text is read as the file.
    fixture.google.refuse({ status: 503, word: 'UNAVAILABLE', message: 'The service is currently unavailable.', times: GOOGLE_ATTEMPTS - 1 });
    const created = await server.admin('POST', path, { property: PROPERTY, key: JSON.stringify(fixture.keyFile), from: '2025-04-01', to: '2025-04-02' });
    assert.equal(created.status, 202);
    const job = await finishedImport(server, site.siteId, created.body.importId);
    assert.equal(job.status, 'done', job.error);
    assert.equal(fixture.google.refused, 2 * GOOGLE_ATTEMPTS - 1);
    assert.equal(await visitors(), 20);

    // Requests at the same instant are counted before any of them awaits: 3 pending imports a site at the most.
    const together = await Promise.all(Array.from({ length: 5 }, () => server.admin('POST', path, { property: PROPERTY, key: fixture.keyFile, from: '2025-04-01', to: '2025-04-02' })));
    assert.deepEqual(together.map((r) => r.status).sort(), [202, 202, 202, 429, 429]);
    for (const r of together) if (r.status === 202) assert.equal((await finishedImport(server, site.siteId, r.body.importId)).status, 'done');
  } finally {
    await server.stop();
    await fixture.google.stop();
  }
});

test('a GA4 job stopped with its process fails for want of the key, and leaves nothing', async () => {
  const fixture = await startGa4Fixture({ [PROPERTY]: ga4Property(DAYS) });
  // Long waits between retries: the job is waiting on Google when its process stops.
  const server = await startTestServer({ ...fixture.server, ga4: { ...fixture.server.ga4, retryBaseMs: 60_000 } });
  try {
    const site = await createSite(server);
    fixture.google.refuse({ status: 429, word: 'RESOURCE_EXHAUSTED', message: 'Exhausted property tokens per hour.', times: 1 });
    const created = await server.admin('POST', `/sites/${site.siteId}/imports/ga4`, { property: PROPERTY, key: fixture.keyFile, from: '2025-04-01', to: '2025-04-02' });
    assert.equal(created.status, 202);
    while (fixture.google.refused === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    await server.ctx.imports.stop();
    assert.ok(Date.now() - started < 5_000, 'the wait for Google ends with the stop');
    const [job] = (await server.admin('GET', `/sites/${site.siteId}/imports`)).body.imports;
    assert.deepEqual([job.status, job.error, job.rows], ['failed', GA4_KEY_GONE, 0]);
  } finally {
    await server.stop();
    await fixture.google.stop();
  }
});

test('a GA4 job whose process died is failed by the worker that takes it: the key died with the process', async () => {
  const stores = await importTestStores('ga4-orphan');
  try {
    const held = { id: 'imp_orphan', siteId: stores.site.id, source: 'ga4' as const, createdAt: 1, uploadFile: '', fileName: `GA4 property ${PROPERTY}` };
    await stores.jobs.createImportJob(held, { holder: 'a process that died', leaseUntil: Date.now() + 60_000 });
    const worker = stores.service({ dataDir: stores.dir });
    await worker.runNow();
    assert.equal((await stores.jobs.getImportJob('imp_orphan'))?.status, 'running', 'not taken while its lease holds');
    await stores.jobs.createImportJob({ ...held, id: 'imp_expired' }, { holder: 'a process that died', leaseUntil: 0 });
    await worker.runNow();
    const job = await stores.jobs.getImportJob('imp_expired');
    assert.deepEqual([job?.status, job?.error], ['failed', GA4_KEY_GONE]);
  } finally {
    await stores.close();
  }
});

test("/app/v1/manage: an organisation's admins and owners import from GA4, its viewers do not", async () => {
  const fixture = await startGa4Fixture({ [PROPERTY]: ga4Property(DAYS) });
  const server = await startTestServer(fixture.server);
  try {
    const site = await createSite(server);
    const owner = await signedInUser(server, `ga4-owner-${process.pid}@example.com`, [{ orgId: site.orgId, role: 'owner' }]);
    const viewer = await signedInUser(server, `ga4-viewer-${process.pid}@example.com`, [{ orgId: site.orgId, role: 'viewer' }]);
    const body = { property: Number(PROPERTY), key: fixture.keyFile, from: '2025-04-01', to: '2025-04-02' };
    const created = await owner.client.request('POST', `/app/v1/manage/sites/${site.siteId}/imports/ga4`, body);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const job = await finishedImport(server, site.siteId, created.body.importId, (path) => owner.client.request('GET', `/app/v1/manage${path}`));
    assert.deepEqual([job.status, job.from, job.to], ['done', '2025-04-01', '2025-04-02']);
    assert.equal((await viewer.client.request('POST', `/app/v1/manage/sites/${site.siteId}/imports/ga4`, body)).status, 403);
  } finally {
    await server.stop();
    await fixture.google.stop();
  }
});
