// svc demo: a full dashboard in one command. Creates a user (its password printed once), an
// organisation it owns, a site with goals and a funnel, and days of generated traffic sent through
// the import path (split at the site's midnights as `svc import` splits a file).
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { isValidTimeZone } from '../../core/localtime.js';
import { SUGGESTED_RAW_DAYS } from '../../core/vocabulary.js';
import type { FunnelSummary } from '../../core/answers.js';
import type { ManagedSite, Org, TrackerSnippet, User } from '../../core/management.js';
import { MAX_IMPORT_LINES } from '../../ingest/import-contract.js';
import { integer, optional } from '../args.js';
import { seg, type AdminClient } from '../client.js';
import { CliError, ServerRefusal } from '../errors.js';
import { DEMO_FUNNEL, DEMO_GOALS, generateDemoTraffic, type DemoTotals, type ImportLine } from '../demo-traffic.js';
import { formatFields } from '../output.js';
import type { Noun } from '../types.js';
import { importFile, type ImportReport } from './import.js';
import { importToolFile } from './import-tool.js';
import { generatePlausibleExport, type ExportTotals } from '../demo-export.js';
import { addDays, localDay } from '../../core/localtime.js';
import { zipStream } from '../../imports/zip.js';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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
  /** The second site: a year from a generated Plausible export, then the same days of traffic as the first. */
  importedSite: {
    dashboard: string;
    siteId: string;
    /** The export's year, as imported aggregates. */
    export: ExportTotals & { importId: string; status: string };
    /** The collected days after it. */
    generated: DemoTotals;
    imported: { accepted: number; rejected: number };
  };
}

/** Days of the second site's generated Plausible export. */
const EXPORT_DAYS = 365;

const percent = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : '-');

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
async function createUser(client: AdminClient, email: string, password: string): Promise<User> {
  try {
    return await client.request<User>('POST', '/users', { email, password, name: 'Demo' });
  } catch (err) {
    if (err instanceof ServerRefusal && err.reason === 'EMAIL_CONFLICT') throw new CliError(`a user ${email} exists already: pass another --email`);
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
        'fill a demo site with generated traffic, to explore the dashboard: it creates a user (its password is printed once), an organisation it owns, a site with goals and a two-step funnel, ' +
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
        const org = await client.request<Org>('POST', '/orgs', { name: 'Demo' });
        await client.request('PUT', `/orgs/${seg(org.id)}/members/${seg(user.id)}`, { role: 'owner' });
        const scratch = mkdtempSync(join(tmpdir(), 'svc-demo-'));
        try {
          const newSite = async (domain: string, name: string) => {
            // Raw events kept 13 months, as the dashboard suggests: they cover the whole demo (366 days at most),
            // so every filter answers over every period of it.
            const site = await client.request<ManagedSite>('POST', `/orgs/${seg(org.id)}/sites`, { domain, name, timezone, rawDays: SUGGESTED_RAW_DAYS });
            for (const goal of DEMO_GOALS) await client.request('POST', `/sites/${seg(site.id)}/goals`, goal);
            const funnel = await client.request<FunnelSummary>('POST', `/sites/${seg(site.id)}/funnels`, DEMO_FUNNEL);
            return { id: site.id, funnelId: funnel.id };
          };
          const collect = async (siteId: string, trafficSeed: number) => {
            const { lines, totals } = generateDemoTraffic({ seed: trafficSeed, days, visitorsPerDay, timeZone: timezone, now });
            inv.out.note(`importing ${lines.length} generated events (${totals.pageviews} pageviews, ${totals.from} to ${totals.to})…`);
            const file = join(scratch, `${siteId}.ndjson`);
            await writeLines(file, lines);
            const report: ImportReport = await importFile(client, siteId, file, { linesPerCall: MAX_IMPORT_LINES, fromLine: 1, progress: inv.out.stderr });
            return { totals, report };
          };
          const now = Date.now();
          const site = await newSite('demo.example', 'Demo site');
          const { totals, report } = await collect(site.id, seed);

          // The second site: its first year from another tool's export, the days since collected.
          const second = await newSite('imported.example', 'Imported history');
          const exported = generatePlausibleExport({ seed, days: EXPORT_DAYS, last: addDays(localDay(now, timezone), -days), visitorsPerDay });
          const zip = join(scratch, 'plausible-export.zip');
          const sources = Object.entries(exported.files).map(([name, text]) => ({ name, bytes: Readable.from([text]) }));
          await pipeline(Readable.from(zipStream(sources)), createWriteStream(zip));
          inv.out.note(`importing a generated Plausible export (${exported.totals.from} to ${exported.totals.to}) into the second site…`);
          const job = await importToolFile(client, 'plausible', second.id, zip, inv.out.stderr);
          if (job.status !== 'done') throw new CliError(`the generated export's import failed: ${job.error}`);
          const collected = await collect(second.id, seed + 1);

        // Links as the server gives them: at SVC_PUBLIC_URL when set, where sign-in is accepted.
        const dashboardOf = async (siteId: string) => (await client.request<TrackerSnippet>('GET', `/sites/${seg(siteId)}/snippet`)).dashboardUrl;
        const result: DemoResult = {
          dashboard: await dashboardOf(site.id),
          email,
          password,
          orgId: org.id,
          siteId: site.id,
          timezone,
          funnelId: site.funnelId,
          generated: totals,
          imported: { accepted: report.accepted, rejected: report.rejected },
          importedSite: {
            dashboard: await dashboardOf(second.id),
            siteId: second.id,
            export: { ...exported.totals, importId: job.importId, status: job.status },
            generated: collected.totals,
            imported: { accepted: collected.report.accepted, rejected: collected.report.rejected },
          },
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
            ['sessions', totals.sessions],
            ['bounce rate', percent(totals.bounces, totals.sessions)],
            ['imported', `${report.accepted} events, ${report.rejected} rejected`],
            ['second site', `${result.importedSite.dashboard} (imported and collected data side by side)`],
            ['imported year', `${exported.totals.from} to ${exported.totals.to} from a Plausible export: ${exported.totals.visitors} visitors, ${exported.totals.pageviews} pageviews, ${exported.totals.sessions} sessions, bounce rate ${percent(exported.totals.bounces, exported.totals.sessions)}`],
            ['collected', `${collected.totals.from} to ${collected.totals.to}: ${collected.totals.visitors} visitors, ${collected.totals.pageviews} pageviews, bounce rate ${percent(collected.totals.bounces, collected.totals.sessions)}`],
          ]),
        );
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
      },
    },
  ],
};
