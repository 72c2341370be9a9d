// The `svc` command line end to end: a real listening server, the CLI run as a child process
// (`node --import tsx src/cli/svc.ts …`), assertions on stdout, stderr and the exit status.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BROWSER_UA, importEvents, startTestServer, type TestServer } from '../helpers/server.js';
import { totpCode } from '../../src/accounts/totp.js';

const ENTRY = resolve('src/cli/svc.ts');

let server: TestServer;
let scratch: string;

before(async () => {
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'svc-cli-'));
});
after(async () => {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** This process's environment without the test runner's variables nor any of svc's own. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('NODE_TEST') && !k.startsWith('SVC_') && k !== 'PORT') env[k] = v;
  }
  return env;
}

/** Runs `svc ARGS` against the test server (overridable through `env`; undefined removes a variable). */
function svc(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<Run> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...cleanEnv(), SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken, SVC_DATA_DIR: scratch, ...env })) {
    if (v !== undefined) childEnv[k] = v;
  }
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { env: childEnv, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The value of a `key  value` line in readable output. */
function field(output: string, key: string): string {
  const line = output.split('\n').find((l) => l.startsWith(key + ' '));
  assert.ok(line, `no "${key}" line in:\n${output}`);
  return line.slice(key.length).trim();
}

function ok(run: Run): Run {
  assert.equal(run.code, 0, `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return run;
}

let domainCounter = 0;
const uniqueDomain = () => `cli${++domainCounter}-${process.pid}.example`;

describe('organisations, sites and keys', () => {
  let orgId: string;

  test('org add and list, as tables and as JSON', async () => {
    const added = ok(await svc(['org', 'add', 'Acme Inc']));
    orgId = field(added.stdout, 'id');
    assert.match(orgId, /^\d+$/);
    assert.equal(field(added.stdout, 'name'), 'Acme Inc');

    const json = ok(await svc(['org', 'add', 'Beta', '--json']));
    const beta = JSON.parse(json.stdout);
    assert.equal(beta.name, 'Beta');

    const table = ok(await svc(['org', 'list']));
    const lines = table.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+NAME$/);
    assert.ok(lines.some((l) => new RegExp(`^${orgId}\\s+Acme Inc$`).test(l)), table.stdout);
    // Columns line up: every name starts at the same offset.
    assert.equal(new Set(lines.map((l) => l.search(/\S+(\s\S+)*$/))).size, 1, table.stdout);

    const listed = JSON.parse(ok(await svc(['--json', 'org', 'list'])).stdout);
    assert.deepEqual(listed, (await server.admin('GET', '/orgs')).body);
  });

  test('site add, list, archive and activate', async () => {
    const domain = uniqueDomain();
    const added = ok(await svc(['site', 'add', '--org', orgId, '--domain', domain, '--name', 'Main site', '--timezone', 'Europe/Paris']));
    const siteId = field(added.stdout, 'id');
    assert.equal(field(added.stdout, 'domain'), domain);
    assert.equal(field(added.stdout, 'timezone'), 'Europe/Paris');
    assert.equal(field(added.stdout, 'retention'), 'forever');
    assert.equal(field(added.stdout, 'raw events'), '30 days');
    assert.equal(field(added.stdout, 'honor GPC'), 'yes');
    assert.equal(field(added.stdout, 'status'), 'active');

    const second = JSON.parse(
      ok(await svc(['site', 'add', '--org', orgId, '--domain', uniqueDomain(), '--name', 'Shop', '--timezone', 'UTC', '--retention-months', '12', '--raw-days', '90', '--no-gpc', '--json'])).stdout,
    );
    assert.equal(second.retentionMonths, 12);
    assert.equal(second.rawDays, 90);
    assert.equal(second.honorGpc, false);
    assert.equal(typeof second.id, 'string');

    const archived = ok(await svc(['site', 'archive', siteId]));
    assert.equal(field(archived.stdout, 'status'), 'archived');

    const table = ok(await svc(['site', 'list', '--org', orgId])).stdout.trimEnd().split('\n');
    assert.match(table[0]!, /^ID\s+DOMAIN\s+NAME\s+TIMEZONE\s+RETENTION\s+RAW DAYS\s+GPC\s+STATUS$/);
    const row = table.find((l) => l.startsWith(siteId));
    assert.ok(row, table.join('\n'));
    assert.match(row, new RegExp(`${domain.replace(/\./g, '\\.')}\\s+Main site\\s+Europe/Paris\\s+forever\\s+30\\s+honored\\s+archived$`));
    assert.match(table.find((l) => l.startsWith(second.id))!, /12 months\s+90\s+ignored\s+active$/);
    // Aligned: the STATUS column starts at the same offset on every line.
    const statusAt = table[0]!.indexOf('STATUS');
    assert.ok(table.slice(1).every((l) => /^(active|archived)$/.test(l.slice(statusAt))), table.join('\n'));

    const listed = JSON.parse(ok(await svc(['site', 'list', '--org', orgId, '--json'])).stdout);
    assert.equal(listed.sites.find((s: any) => s.id === siteId).status, 'archived');

    const activated = JSON.parse(ok(await svc(['site', 'activate', siteId, '--json'])).stdout);
    assert.equal(activated.status, 'active');
  });

  test('key add, list and revoke; relay keys', async () => {
    const added = ok(await svc(['key', 'add', '--org', orgId, '--name', 'dashboard']));
    assert.match(field(added.stdout, 'key'), /^svc_/);
    assert.match(added.stderr, /not shown again/);
    const keyId = field(added.stdout, 'id');

    const json = JSON.parse(ok(await svc(['key', 'add', '--org', orgId, '--json'])).stdout);
    assert.equal(typeof json.key, 'string');

    const before = ok(await svc(['key', 'list', '--org', orgId])).stdout.trimEnd().split('\n');
    assert.match(before[0]!, /^ID\s+NAME\s+CREATED\s+REVOKED$/);
    assert.match(before.find((l) => l.startsWith(keyId + ' '))!, /dashboard\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+-$/);
    assert.ok(!before.join('\n').includes('svc_'), 'a listing never shows a secret');

    const revoked = ok(await svc(['key', 'revoke', keyId]));
    assert.match(revoked.stdout, new RegExp(`^key ${keyId} revoked at \\d{4}-`));

    const after = JSON.parse(ok(await svc(['key', 'list', '--org', orgId, '--json'])).stdout);
    assert.equal(typeof after.keys.find((k: any) => String(k.id) === keyId).revokedAt, 'number');
    assert.equal(after.keys.find((k: any) => k.id === json.id).revokedAt, null);

    const relay = JSON.parse(ok(await svc(['relay-key', 'add', '--name', 'edge', '--json'])).stdout);
    assert.equal(typeof relay.key, 'string');
    assert.equal(typeof relay.id, 'number');
  });
});

describe('goals, funnels, maintenance, snippet', { concurrency: true }, () => {
  let siteId: string;
  let domain: string;
  before(async () => {
    const org = await server.admin('POST', '/orgs', { name: 'Goals org' });
    domain = uniqueDomain();
    const site = await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain, name: 'G', timezone: 'UTC' });
    siteId = site.body.id;
  });

  test('goal add, list and rm', async () => {
    const added = ok(await svc(['goal', 'add', '--site', siteId, '--name', 'Signup', '--kind', 'event', '--pattern', 'signup']));
    const goalId = field(added.stdout, 'id');
    assert.equal(field(added.stdout, 'kind'), 'event');
    const page = JSON.parse(ok(await svc(['goal', 'add', '--site', siteId, '--name', 'Docs', '--kind', 'page', '--pattern', '/docs/**', '--json'])).stdout);
    assert.equal(page.pattern, '/docs/**');
    const twin = await svc(['goal', 'add', '--site', siteId, '--name', 'Signup again', '--kind', 'event', '--pattern', 'signup']);
    assert.equal(twin.code, 1);
    assert.equal(twin.stderr, `svc: CONFLICT: a goal with this kind and pattern already exists on this site (goal ${goalId})\n`);
    const listed = ok(await svc(['goal', 'list', '--site', siteId])).stdout.split('\n');
    assert.match(listed[0]!, /^ID\s+NAME\s+KIND\s+PATTERN/);
    assert.ok(listed.some((l) => /Signup\s+event\s+signup/.test(l)) && listed.some((l) => /Docs\s+page\s+\/docs\/\*\*/.test(l)));
    const removed = ok(await svc(['goal', 'rm', '--site', siteId, goalId]));
    assert.equal(removed.stdout, `goal ${goalId} deleted\n`);
    const again = await svc(['goal', 'rm', '--site', siteId, goalId]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, 'svc: NOT_FOUND: goal not found\n');
    const pro = ok(await svc(['goal', 'add', '--site', siteId, '--name', 'Pro', '--kind', 'event', '--pattern', 'signup', '--prop', 'plan=pro', '--prop', 'ref=a=b']));
    assert.equal(field(pro.stdout, 'props'), 'plan=pro ref=a=b');
    const withProps = ok(await svc(['goal', 'list', '--site', siteId])).stdout.split('\n');
    assert.match(withProps[0]!, /^ID\s+NAME\s+KIND\s+PATTERN\s+PROPS/);
    assert.ok(withProps.some((l) => /Pro\s+event\s+signup\s+plan=pro ref=a=b/.test(l)));
    const badProp = await svc(['goal', 'add', '--site', siteId, '--name', 'Bad', '--kind', 'event', '--pattern', 'signup', '--prop', 'plan']);
    assert.equal(badProp.code, 2);
    assert.match(badProp.stderr, /--prop must be key=value, got "plan"/);
    const revenue = ok(await svc(['goal', 'add', '--site', siteId, '--name', 'Orders', '--kind', 'event', '--pattern', 'order', '--currency', 'EUR']));
    assert.equal(field(revenue.stdout, 'currency'), 'EUR');
    const lower = await svc(['goal', 'add', '--site', siteId, '--name', 'Tips', '--kind', 'event', '--pattern', 'tip', '--currency', 'eur']);
    assert.equal(lower.stderr, 'svc: INVALID_PARAMS: currency: a currency is an ISO 4217 code of three capital letters, such as EUR\n');
    const tooWild = await svc(['goal', 'add', '--site', siteId, '--name', 'Deep', '--kind', 'page', '--pattern', `/${'*/'.repeat(17)}`]);
    assert.equal(tooWild.code, 1);
    assert.equal(tooWild.stderr, 'svc: INVALID_PARAMS: pattern: a page pattern has at most 16 wildcards (* or **), this one has 17\n');
  });

  test('funnel add and steps', async () => {
    const added = ok(await svc(['funnel', 'add', '--site', siteId, '--name', 'Checkout', '--window', '60', '--step', 'page:/pricing', '--step', 'page:/checkout', '--step', 'event:purchase']));
    assert.equal(field(added.stdout, 'steps'), '3');
    assert.equal(field(added.stdout, 'window'), '60 min');
    assert.equal(field(added.stdout, 'version'), '1');
    const funnelId = field(added.stdout, 'id');
    const replaced = JSON.parse(ok(await svc(['funnel', 'steps', '--site', siteId, funnelId, '--step', 'page:/pricing', '--step', 'event:purchase', '--json'])).stdout);
    assert.equal(replaced.version, 2);
    assert.equal(replaced.stepCount, 2);
  });

  test('funnel list, show and rm', async () => {
    const added = ok(await svc(['funnel', 'add', '--site', siteId, '--name', 'Trial', '--window', '15', '--step', 'page:/', '--step', 'event:trial']));
    const funnelId = field(added.stdout, 'id');
    ok(await svc(['funnel', 'steps', '--site', siteId, funnelId, '--step', 'page:/**', '--step', 'page:/welcome', '--step', 'event:trial']));
    const listed = ok(await svc(['funnel', 'list', '--site', siteId])).stdout.split('\n');
    assert.match(listed[0]!, /^ID\s+NAME\s+WINDOW\s+VERSION\s+STEPS$/);
    assert.ok(listed.some((l) => new RegExp(`^${funnelId}\\s+Trial\\s+15 min\\s+2\\s+page:/\\*\\* → page:/welcome → event:trial$`).test(l)), listed.join('\n'));
    const shown = ok(await svc(['funnel', 'show', '--site', siteId, funnelId])).stdout;
    assert.equal(field(shown, 'name'), 'Trial');
    assert.equal(field(shown, 'version'), '2');
    assert.match(shown, /\nVERSION\s+CREATED\s+STEPS\n1\s+\S+Z\s+page:\/ → event:trial\n2\s+\S+Z\s+page:\/\*\* → page:\/welcome → event:trial\n$/);
    const json = JSON.parse(ok(await svc(['funnel', 'show', '--site', siteId, funnelId, '--json'])).stdout);
    assert.deepEqual(json.versions[0].steps, [{ kind: 'page', pattern: '/' }, { kind: 'event', pattern: 'trial' }]);
    assert.equal(ok(await svc(['funnel', 'rm', '--site', siteId, funnelId])).stdout, `funnel ${funnelId} deleted\n`);
    const again = await svc(['funnel', 'show', '--site', siteId, funnelId]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, 'svc: NOT_FOUND: funnel not found\n');
    assert.ok(!ok(await svc(['funnel', 'list', '--site', siteId])).stdout.includes('Trial'));
  });

  test('maintenance run', async () => {
    const one = ok(await svc(['maintenance', 'run', '--task', 'salts']));
    assert.equal(one.stdout, 'ran: salts\n');
    const all = JSON.parse(ok(await svc(['maintenance', 'run', '--json'])).stdout);
    assert.ok(Array.isArray(all.ran) && all.ran.includes('salts'), JSON.stringify(all));
  });

  test("snippet: the tag the server builds from its public URL, with a note when it has none", async () => {
    const run = ok(await svc(['snippet', siteId]));
    assert.equal(run.stdout, `<script defer src="${server.url}/js/t.js" data-site="${siteId}"></script>\n`);
    assert.equal(run.stderr, `svc: the server has no SVC_PUBLIC_URL, so this tag loads ${server.url}/js/t.js; set SVC_PUBLIC_URL to the address browsers reach\n`);
    const json = JSON.parse(ok(await svc(['snippet', siteId, '--json'])).stdout);
    assert.equal(json.publicUrlSet, false);
    const missing = await svc(['snippet', 'no-such-site']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'svc: NOT_FOUND: site not found\n');
  });

  test("stats: the KPIs with their change and the top pages, as the read API answers them, under filters too", async () => {
    // A site of its own: the tests beside it collect to theirs at the same time.
    const org = await server.admin('POST', '/orgs', { name: 'Stats org' });
    const siteId = (await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain: uniqueDomain(), name: 'S', timezone: 'UTC' })).body.id as string;
    const now = Date.now();
    const line = (ip: string, u: string, country: string, minutes: number) => ({ ts: now - minutes * 60_000, ua: BROWSER_UA, ip, u, country });
    const imported = await importEvents(server, siteId, [line('203.0.113.1', '/pricing', 'DE', 30), line('203.0.113.1', '/', 'DE', 29), line('203.0.113.2', '/', 'FR', 20)]);
    assert.equal(imported.body.accepted, 3);
    const run = ok(await svc(['stats', siteId, '--period', '7d']));
    const read = await server.admin('GET', `/sites/${siteId}/stats?period=7d`);
    assert.equal(read.status, 200);
    assert.equal(field(run.stdout, 'Visitors').split(/\s{2,}/)[0], String(read.body.stats.visitors.value));
    assert.equal(read.body.stats.visitors.value, 2);
    assert.equal(field(run.stdout, 'Pageviews').split(/\s{2,}/)[0], '3');
    assert.match(run.stdout, /^Page +Visitors +Views\n\/ +2 +2\n\/pricing +1 +1\n/m);
    // Filters as the read API takes them, operators included; the JSON carries both answers.
    const filtered = JSON.parse(ok(await svc(['stats', siteId, '--period', '7d', '--filter', 'country!:FR', '--json'])).stdout);
    assert.equal(filtered.stats.stats.visitors.value, 1);
    assert.deepEqual(filtered.pages.rows.map((r: { key: string }) => r.key), ['/', '/pricing']);
    const refused = await svc(['stats', siteId, '--period', 'decade']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^svc: INVALID_PARAMS: /);
  });

  test('watch prints the kept outcomes, then each new one as it comes', async () => {
    const headers = { origin: `https://${domain}`, 'user-agent': BROWSER_UA };
    assert.equal(await server.collect({ s: siteId, u: '/before-watch' }, headers), 202);
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'watch', siteId, '--interval', '1'], {
      env: { ...cleanEnv(), SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    const waitFor = async (pattern: RegExp) => {
      for (let i = 0; i < 200 && !pattern.test(stdout); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(stdout, pattern, `stderr: ${stderr}`);
    };
    try {
      await waitFor(/\/before-watch\n/);
      assert.equal(await server.collect({ s: siteId, u: '/bad-revenue', e: 'purchase', v: { amount: 0.1 + 0.2, currency: 'EUR' } }, headers), 202);
      await waitFor(/\/bad-revenue\n/);
      assert.equal(await server.collect({ s: siteId, u: '/after-watch' }, { ...headers, origin: 'https://elsewhere.example' }), 202);
      await waitFor(/\/after-watch\n/);
    } finally {
      child.kill();
    }
    const lines = stdout.trimEnd().split('\n');
    assert.match(lines.find((l) => l.endsWith('/before-watch'))!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  accepted         pageview      Chrome  \/before-watch$/);
    assert.match(lines.find((l) => l.endsWith('/bad-revenue'))!, /^\S+Z  accepted_without_revenue  purchase      Chrome  \/bad-revenue$/);
    assert.match(lines.at(-1)!, /^\S+Z  origin_mismatch  pageview      Chrome  \/after-watch$/);
    assert.equal(lines.filter((l) => l.endsWith('/before-watch')).length, 1, 'an outcome is printed once');
    assert.match(stderr, /^svc: watching /);
  });
});

describe('users and members', () => {
  test('user add from standard input, user list, member set by email and by id, member list and rm', async () => {
    const org = JSON.parse(ok(await svc(['org', 'add', 'Members Inc', '--json'])).stdout);
    const added = ok(await svc(['user', 'add', '--email', 'cli-ana@example.com', '--name', 'Ana', '--password-stdin'], {}, 'a long enough secret\n'));
    const userId = field(added.stdout, 'id');
    assert.equal(field(added.stdout, 'email'), 'cli-ana@example.com');
    // The password is the input less its final line break.
    const signIn = await fetch(`${server.url}/app/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cli-ana@example.com', password: 'a long enough secret' }),
    });
    assert.equal(signIn.status, 200);

    const list = ok(await svc(['user', 'list']));
    assert.match(list.stdout, /^ID\s+EMAIL\s+NAME\s+CREATED\n/);
    assert.match(list.stdout, new RegExp(`\\n${userId}\\s+cli-ana@example\\.com\\s+Ana\\s`));
    assert.ok(!list.stdout.includes('scrypt'));

    const byEmail = ok(await svc(['member', 'set', '--org', String(org.id), '--user', 'CLI-ANA@example.com', '--role', 'admin']));
    assert.equal(field(byEmail.stdout, 'role'), 'admin');
    assert.equal(field(byEmail.stdout, 'user'), userId);
    ok(await svc(['member', 'set', '--org', String(org.id), '--user', userId, '--role', 'owner']));
    const members = JSON.parse(ok(await svc(['member', 'list', '--org', String(org.id), '--json'])).stdout);
    assert.deepEqual(members, { members: [{ userId: Number(userId), email: 'cli-ana@example.com', name: 'Ana', role: 'owner' }] });

    const badRole = await svc(['member', 'set', '--org', String(org.id), '--user', userId, '--role', 'king']);
    assert.equal(badRole.code, 2);
    const short = await svc(['user', 'add', '--email', 'cli-bob@example.com', '--password-stdin'], {}, 'short\n');
    assert.equal(short.code, 1);
    assert.equal(short.stderr, 'svc: INVALID_PARAMS: password must be at least 10 characters\n');
    const duplicate = await svc(['user', 'add', '--email', 'Cli-Ana@Example.com', '--password-stdin'], {}, 'a long enough secret');
    assert.match(duplicate.stderr, /^svc: CONFLICT: /);
    const noTerminal = await svc(['user', 'add', '--email', 'cli-bob@example.com']);
    assert.equal(noTerminal.code, 1);
    assert.match(noTerminal.stderr, /no terminal to ask the password on: pass it on standard input with --password-stdin/);

    const lastOwner = await svc(['member', 'rm', '--org', String(org.id), '--user', userId]);
    assert.match(lastOwner.stderr, /^svc: CONFLICT: an organisation keeps at least one owner/);
    ok(await svc(['user', 'rm', userId]));
    assert.ok(!ok(await svc(['user', 'list'])).stdout.includes('cli-ana@example.com'));
  });

  test("user reset-2fa turns a user's two-factor sign-in off by email", async () => {
    const user = await server.ctx.accounts.createUser({ email: 'cli-2fa@example.com', password: 'a long enough secret' });
    const { secret } = await server.ctx.accounts.twoFactor.begin(user);
    await server.ctx.accounts.twoFactor.confirm(user.id, totpCode(secret, Date.now()));
    const reset = ok(await svc(['user', 'reset-2fa', '--email', 'CLI-2FA@example.com']));
    assert.equal(reset.stdout, `two-factor sign-in of cli-2fa@example.com (user ${user.id}) turned off\n`);
    assert.deepEqual(await server.ctx.accounts.twoFactor.status(user.id), { enabled: false, recoveryCodesLeft: 0 });
    const none = await svc(['user', 'reset-2fa', '--email', 'cli-2fa@example.com']);
    assert.equal(none.code, 1);
    assert.equal(none.stderr, 'svc: NOT_FOUND: two-factor sign-in is not enabled for this user\n');
    const unknown = await svc(['user', 'reset-2fa', '--email', 'nobody@example.com']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'svc: NOT_FOUND: no user has the email nobody@example.com\n');
  });

  test('user add asks for the password twice at a terminal, without echo', async () => {
    const command = [process.execPath, '--import', 'tsx', ENTRY, 'user', 'add', '--email', 'cli-tty@example.com'].map((a) => `'${a}'`).join(' ');
    const env: Record<string, string | undefined> = { ...process.env, SVC_URL: server.url, SVC_ADMIN_TOKEN: server.adminToken, SVC_DATA_DIR: scratch };
    for (const k of Object.keys(env)) if (k.startsWith('NODE_TEST')) delete env[k];
    // script(1) runs the CLI on a pseudo-terminal fed by this pipe.
    const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const answered = new Set<string>();
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      output += d;
      for (const prompt of ['Password: ', 'Repeat password: ']) {
        if (output.includes(prompt) && !answered.has(prompt)) {
          answered.add(prompt);
          child.stdin.write('typed secret 123\r');
        }
      }
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    assert.equal(code, 0, output);
    assert.ok(!output.includes('typed secret'), `the password was echoed:\n${output}`);
    assert.match(output, /email\s+cli-tty@example\.com/);
    const signIn = await fetch(`${server.url}/app/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cli-tty@example.com', password: 'typed secret 123' }),
    });
    assert.equal(signIn.status, 200);
  });
});

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

describe('errors', { concurrency: true }, () => {
  test('API errors print the envelope code and message', async () => {
    const org = await server.admin('POST', '/orgs', { name: 'Errors org' });
    const orgId = String(org.body.id);
    const badZone = await svc(['site', 'add', '--org', orgId, '--domain', uniqueDomain(), '--name', 'x', '--timezone', 'Mars/Olympus']);
    assert.equal(badZone.code, 1);
    assert.equal(badZone.stdout, '');
    assert.match(badZone.stderr, /^svc: INVALID_PARAMS: timezone "Mars\/Olympus" is not an IANA time zone\n$/);

    const domain = uniqueDomain();
    ok(await svc(['site', 'add', '--org', orgId, '--domain', domain, '--name', 'x', '--timezone', 'UTC']));
    const dup = await svc(['site', 'add', '--org', orgId, '--domain', domain, '--name', 'y', '--timezone', 'UTC', '--json']);
    assert.equal(dup.code, 1);
    assert.match(dup.stderr, /^svc: CONFLICT: [^\n]+\n$/);

    const unknownSite = await svc(['site', 'archive', 'nope']);
    assert.equal(unknownSite.stderr, 'svc: NOT_FOUND: site not found\n');
  });

  test('an unreachable server', async () => {
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => done(port));
      });
    });
    const run = await svc(['org', 'list'], { SVC_URL: `http://127.0.0.1:${port}` });
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `svc: cannot reach svc at http://127.0.0.1:${port}: is it running? (ECONNREFUSED)\n`);
  });

  test('a refused token, a missing token, and the token file of the data dir', async () => {
    const refused = await svc(['org', 'list', '--token', 'wrong-token-wrong-token']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, 'svc: the admin token was refused: set SVC_ADMIN_TOKEN or --token\n');

    const none = await svc(['org', 'list'], { SVC_ADMIN_TOKEN: undefined });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^svc: no admin token: set SVC_ADMIN_TOKEN or --token/);

    const dataDir = mkdtempSync(join(scratch, 'data-'));
    writeFileSync(join(dataDir, 'admin-token'), server.adminToken + '\n');
    ok(await svc(['org', 'list'], { SVC_ADMIN_TOKEN: undefined, SVC_DATA_DIR: dataDir }));
  });

  test("the server's address from its data dir, whatever PORT it listens on", async () => {
    // The test server listens on a random port and wrote it to its data dir's server-url file.
    ok(await svc(['org', 'list'], { SVC_URL: undefined, SVC_DATA_DIR: server.dataDir }));
    const port = new URL(server.url).port;
    // Without that file: PORT on 127.0.0.1, as the server reads it.
    ok(await svc(['org', 'list'], { SVC_URL: undefined, PORT: port }));
  });

  test('usage errors name the problem and print the usage line', async () => {
    const cases: Array<[string[], RegExp, string]> = [
      [['site', 'list'], /missing --org/, 'svc site list --org ID'],
      [['org', 'add'], /missing NAME/, 'svc org add NAME'],
      [['org', 'add', 'a', 'b'], /unexpected argument "b"/, 'svc org add NAME'],
      [['site', 'add', '--org', '1', '--bogus'], /unknown option '--bogus'/, 'svc site add --org ID'],
      [['site', 'add', '--org', '1', '--domain', 'a.example', '--name', 'n', '--timezone', 'UTC', '--retention-months', 'many'], /--retention-months must be a whole number/, 'svc site add'],
      [['goal', 'add', '--site', 's', '--name', 'n', '--kind', 'click', '--pattern', 'p'], /--kind must be page or event/, 'svc goal add'],
      [['funnel', 'add', '--site', 's', '--name', 'n', '--window', '5', '--step', 'page:/a', '--step', 'signup'], /--step must be page:PATH or event:NAME/, 'svc funnel add'],
      [['key', 'revoke', 'abc'], /KEY_ID must be a positive whole number/, 'svc key revoke KEY_ID'],
      [['site'], /missing command after "svc site"/, 'svc site add'],
      [['site', 'delete', 'x'], /unknown command "svc site delete"/, 'svc site archive SITE_ID'],
    ];
    const runs = await Promise.all(cases.map(([args]) => svc(args)));
    runs.forEach((run, i) => {
      const [args, problem, usage] = cases[i]!;
      assert.equal(run.code, 2, `svc ${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      const [first, ...rest] = run.stderr.split('\n');
      assert.match(first!, /^svc: /);
      assert.match(first!, problem);
      assert.ok(rest[0]!.startsWith('usage: ') && rest.join('\n').includes(usage), run.stderr);
    });
    const unknown = await svc(['frobnicate']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^svc: unknown command "frobnicate": see `svc help`\n$/);
  });

  test('help', async () => {
    const [all, noun, verb, topic, bare] = await Promise.all([
      svc(['help']),
      svc(['site', '--help']),
      svc(['key', 'add', '-h']),
      svc(['help', 'import']),
      svc([]),
    ]);
    ok(all);
    for (const usage of ['svc org add NAME', 'svc site archive SITE_ID', 'svc import FILE --site ID', 'svc snippet SITE_ID', '--json']) {
      assert.ok(all.stdout.includes(usage), usage);
    }
    // A command is described by what it does, not by its first step.
    assert.match(all.stdout, /svc demo \[[^\n]+\n\s+fill a demo site with generated traffic, to explore the dashboard\n/);
    assert.match(ok(noun).stdout, /usage: svc site add [^\n]+\n[^\n]+\n\s+example: svc site add/);
    assert.match(ok(noun).stdout, /usage: svc site activate SITE_ID/);
    assert.match(ok(verb).stdout, /^usage: svc key add --org ID \[--name N\]\n/);
    assert.match(ok(topic).stdout, /usage: svc import FILE --site ID/);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /usage: svc <command>/);
  });
});
