// The `svc` command line end to end: a real listening server, the CLI run as a child process
// (`node --import tsx src/cli/svc.ts …`), assertions on stdout, stderr and the exit status.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BROWSER_UA, importEvents } from '../helpers/server.js';
import { totpCode } from '../../src/accounts/totp.js';
import { formatMetric, kpiChangeText, REPORT_LOCALE } from '../../src/core/figure-text.js';
import { names } from '../../src/core/messages/en/common.js';
import { cleanEnv, ENTRY, field, ok, scratch, server, startCliServer, svc, uniqueDomain } from './cli-harness.js';

startCliServer();

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
    assert.equal(field(added.stdout, 'raw events'), '396 days', 'the Add site form\'s preselected 13 months');
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
    assert.match(row, new RegExp(`${domain.replace(/\./g, '\\.')}\\s+Main site\\s+Europe/Paris\\s+forever\\s+396\\s+honored\\s+archived$`));
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

  test('stats: the KPIs with their change, views per visit and the top pages, read and written as the dashboard reads and writes them, under filters too', async () => {
    // A site of its own: the tests beside it collect to theirs at the same time.
    const org = await server.admin('POST', '/orgs', { name: 'Stats org' });
    const siteId = (await server.admin('POST', `/orgs/${org.body.id}/sites`, { domain: uniqueDomain(), name: 'S', timezone: 'UTC' })).body.id as string;
    const now = Date.now();
    const line = (ip: string, u: string, country: string, minutes: number) => ({ ts: now - minutes * 60_000, ua: BROWSER_UA, ip, u, country });
    const imported = await importEvents(server, siteId, [line('203.0.113.1', '/pricing', 'DE', 30), line('203.0.113.1', '/', 'DE', 29), line('203.0.113.2', '/', 'FR', 20)]);
    assert.equal(imported.body.accepted, 3);
    const run = ok(await svc(['stats', siteId, '--period', '7d']));
    // The dashboard's read of the view: raw=clip, and today against the same hours of the compared days.
    const read = await server.admin('GET', `/sites/${siteId}/stats?period=7d&raw=clip&elapsed=true`);
    assert.equal(read.status, 200);
    for (const metric of ['visitors', 'sessions', 'bounceRate', 'avgDuration'] as const) {
      const kpi = read.body.stats[metric];
      assert.deepEqual(field(run.stdout, names.metricNames[metric]).split(/\s{2,}/), [formatMetric(metric, kpi.value, REPORT_LOCALE), kpiChangeText(metric, kpi, REPORT_LOCALE)], metric);
    }
    assert.equal(read.body.stats.visitors.value, 2);
    assert.equal(field(run.stdout, 'Pageviews').split(/\s{2,}/)[0], '3');
    assert.equal(field(run.stdout, 'Views per visit').split(/\s{2,}/)[0], '1.5');
    assert.match(run.stdout, /^Page +Visitors +Views\n\/ +2 +2\n\/pricing +1 +1\n/m);
    // Under a page filter, visits are counted and time on page stands in visit duration's place, as on the tiles.
    const paged = ok(await svc(['stats', siteId, '--period', '7d', '--filter', 'page:/pricing']));
    assert.equal(field(paged.stdout, 'Visits').split(/\s{2,}/)[0], '1');
    assert.match(paged.stdout, /^Time on page /m);
    assert.doesNotMatch(paged.stdout, /^Visit duration /m);
    // Filters as the read API takes them, operators included; the JSON carries both answers.
    const filtered = JSON.parse(ok(await svc(['stats', siteId, '--period', '7d', '--filter', 'country!:FR', '--json'])).stdout);
    assert.equal(filtered.stats.stats.visitors.value, 1);
    assert.deepEqual(filtered.pages.rows.map((r: { key: string }) => r.key), ['/', '/pricing']);
    const refused = await svc(['stats', siteId, '--period', 'decade']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^svc: INVALID_PARAMS: /);
    // Under a filter over a period that starts before the raw window (30 days here), conversions are counted from its first day, and said so.
    assert.equal((await server.admin('POST', `/sites/${siteId}/goals`, { name: 'Pricing', kind: 'page', pattern: '/pricing' })).status, 201);
    const quarter = await server.admin('GET', `/sites/${siteId}/stats?period=90d&raw=clip&elapsed=true&filter=country:DE`);
    const since = /^conversions=(.+)$/.exec(quarter.headers.get('svc-counted-since') ?? '')?.[1];
    assert.ok(since, 'the answer says from which day');
    const long = ok(await svc(['stats', siteId, '--period', '90d', '--filter', 'country:DE']));
    assert.equal(field(long.stdout, 'Conversions').split(/\s{2,}/)[0], `1 (since ${since})`);
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

  test("user email changes a user's email, unconfirmed; org sign-in-domains shows and grants an organisation's domains", async () => {
    const user = await server.ctx.accounts.createUser({ email: 'cli-mail@example.com', password: 'a long enough secret' });
    const changed = ok(await svc(['user', 'email', String(user.id), '--email', 'cli-new@example.com']));
    assert.equal(changed.stdout, `email of user ${user.id} is now cli-new@example.com; its sessions ended\n`);
    assert.equal((await server.ctx.accounts.store.findUserByEmail('cli-new@example.com'))?.emailConfirmed, false);
    const org = JSON.parse(ok(await svc(['org', 'add', 'Domains Inc', '--json'])).stdout);
    assert.equal(ok(await svc(['org', 'sign-in-domains', String(org.id)])).stdout, `organisation ${org.id} has no sign-in domains\n`);
    assert.equal(ok(await svc(['org', 'sign-in-domains', String(org.id), '--set', 'Acme.com, acme.de'])).stdout, 'acme.com\nacme.de\n');
    assert.deepEqual((await server.ctx.accounts.orgSignIn(org.id)).domains, ['acme.com', 'acme.de']);
    ok(await svc(['org', 'sign-in-domains', String(org.id), '--clear']));
    assert.deepEqual((await server.ctx.accounts.orgSignIn(org.id)).domains, []);
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
