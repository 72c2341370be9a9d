// svc demo: a full dashboard in one command. Creates a user (its password printed once), an
// organisation it owns, a site with goals and a funnel, and days of generated traffic sent through
// the import path (split at the site's midnights as `svc import` splits a file).
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { isValidTimeZone } from '../../core/localtime.js';
import { RAW_DAYS } from '../../core/vocabulary.js';
import { MAX_IMPORT_LINES } from '../../ingest/import-contract.js';
import { integer, optional } from '../args.js';
import { seg, type AdminClient } from '../client.js';
import { CliError, ServerRefusal } from '../errors.js';
import { DEMO_FUNNEL, DEMO_GOALS, generateDemoTraffic, type DemoTotals, type ImportLine } from '../demo-traffic.js';
import { formatFields } from '../output.js';
import type { Noun } from '../types.js';
import { importFile, type ImportReport } from './import.js';

export interface DemoResult {
  dashboard: string;
  email: string;
  password: string;
  orgId: number;
  siteId: string;
  timezone: string;
  funnelId: number;
  generated: DemoTotals;
  imported: { accepted: number; rejected: number };
}

/** Writes the lines as NDJSON; resolves once the file is complete. */
async function writeLines(file: string, lines: readonly ImportLine[]): Promise<void> {
  const out = createWriteStream(file);
  for (const line of lines) {
    if (!out.write(JSON.stringify(line) + '\n')) await new Promise<void>((go) => out.once('drain', () => go()));
  }
  out.end();
  await finished(out);
}

/** The user, refused early (before anything else is created) when the email is taken. */
async function createUser(client: AdminClient, email: string, password: string): Promise<{ id: number | string }> {
  try {
    return await client.request<{ id: number | string }>('POST', '/users', { email, password, name: 'Demo' });
  } catch (err) {
    if (err instanceof ServerRefusal && err.code === 'CONFLICT') throw new CliError(`a user ${email} exists already: pass another --email`);
    throw err;
  }
}

/** A password of 20 characters from 15 random bytes, shown once. */
const newPassword = () => randomBytes(15).toString('base64url');

const defaultTimeZone = () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isValidTimeZone(zone) ? zone : 'UTC';
};

export const demo: Noun = {
  name: 'demo',
  summary: 'create a demo user, organisation and site with 90 days of generated traffic',
  commands: [
    {
      usage: 'svc demo [--email E] [--days N] [--visitors N] [--seed N] [--timezone TZ]',
      summary:
        'create a user (its password is printed once), an organisation it owns, a site with goals and a two-step funnel, ' +
        'and --days (90) days of generated traffic (--visitors a weekday, 300) imported through the admin API; the same --seed gives the same traffic',
      options: { email: { type: 'string' }, days: { type: 'string' }, visitors: { type: 'string' }, seed: { type: 'string' }, timezone: { type: 'string' } },
      example: 'svc demo --email me@example.com',
      async run(inv) {
        const email = optional(inv, 'email') ?? 'demo@example.com';
        const days = integer(inv, 'days', optional(inv, 'days') ?? '90', 1, 366);
        const visitorsPerDay = integer(inv, 'visitors', optional(inv, 'visitors') ?? '300', 1, 20_000);
        const seed = integer(inv, 'seed', optional(inv, 'seed') ?? '1', 0, 2 ** 32 - 1);
        const timezone = optional(inv, 'timezone') ?? defaultTimeZone();
        if (!isValidTimeZone(timezone)) inv.usage(`--timezone must be an IANA time zone such as Europe/Paris, got ${JSON.stringify(timezone)}`);
        const client = inv.client();

        const password = newPassword();
        const user = await createUser(client, email, password);
        const org = await client.request<{ id: number }>('POST', '/orgs', { name: 'Demo' });
        await client.request('PUT', `/orgs/${seg(org.id)}/members/${seg(user.id)}`, { role: 'owner' });
        // Raw events cover the whole demo, so that every filter answers over every period of it.
        const rawDays = Math.max(RAW_DAYS.min, days);
        const site = await client.request<{ id: string }>('POST', `/orgs/${seg(org.id)}/sites`, { domain: 'demo.example', name: 'Demo site', timezone, rawDays });
        for (const goal of DEMO_GOALS) await client.request('POST', `/sites/${seg(site.id)}/goals`, goal);
        const funnel = await client.request<{ id: number }>('POST', `/sites/${seg(site.id)}/funnels`, DEMO_FUNNEL);

        const { lines, totals } = generateDemoTraffic({ seed, days, visitorsPerDay, timeZone: timezone, now: Date.now() });
        inv.out.note(`importing ${lines.length} generated events (${totals.pageviews} pageviews, ${totals.from} to ${totals.to})…`);
        const scratch = mkdtempSync(join(tmpdir(), 'svc-demo-'));
        let report: ImportReport;
        try {
          const file = join(scratch, 'demo.ndjson');
          await writeLines(file, lines);
          report = await importFile(client, site.id, file, { linesPerCall: MAX_IMPORT_LINES, fromLine: 1, progress: inv.out.stderr });
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }

        const result: DemoResult = {
          dashboard: `${client.url}/sites/${site.id}`,
          email,
          password,
          orgId: org.id,
          siteId: site.id,
          timezone,
          funnelId: funnel.id,
          generated: totals,
          imported: { accepted: report.accepted, rejected: report.rejected },
        };
        inv.out.result(result, () =>
          formatFields([
            ['dashboard', result.dashboard],
            ['email', email],
            ['password', `${password}  (shown once: keep it)`],
            ['organisation', org.id],
            ['site', `${site.id} (${timezone})`],
            ['days', `${totals.from} to ${totals.to}`],
            ['visitors', totals.visitors],
            ['pageviews', totals.pageviews],
            ['imported', `${report.accepted} events, ${report.rejected} rejected`],
          ]),
        );
      },
    },
  ],
};
