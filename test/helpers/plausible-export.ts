// Plausible exports written for the tests from the documented columns (in Plausible's order), in
// the current version and in the first one (early 2024): per day a few sources, pages, locations,
// devices, browsers, systems and custom events whose figures agree with the day's totals, as CSV
// texts named as Plausible names them.
import assert from 'node:assert/strict';
import { zipStream, type ZipSource } from '../../src/imports/zip.js';
import type { TestServer } from './server.js';
import { uploadImport } from './import-jobs.js';

export type ExportFiles = Record<string, string>;

/** The headers of Plausible's current export, per table. */
export const HEADERS = {
  visitors: 'date,visitors,pageviews,bounces,visits,visit_duration',
  sources: 'date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,pageviews,visitors,visits,visit_duration,bounces',
  pages: 'date,hostname,page,visits,visitors,pageviews,scroll_depth,pageleave_visitors',
  entry_pages: 'date,entry_page,visitors,entrances,visit_duration,bounces,pageviews',
  exit_pages: 'date,exit_page,visitors,visit_duration,exits,bounces,pageviews',
  locations: 'date,country,region,city,visitors,visits,visit_duration,bounces,pageviews',
  devices: 'date,device,visitors,visits,visit_duration,bounces,pageviews',
  browsers: 'date,browser,browser_version,visitors,visits,visit_duration,bounces,pageviews',
  operating_systems: 'date,operating_system,operating_system_version,visitors,visits,visit_duration,bounces,pageviews',
  custom_events: 'date,name,link_url,path,visitors,events',
} as const;

/** The day's figures of the fixture: `scale` multiplies every count (a day of scale 1 has 10 visitors). */
export function plausibleExport(days: readonly string[], scale = (_day: string) => 1): ExportFiles {
  const lines: Record<keyof typeof HEADERS, string[]> = Object.fromEntries(Object.entries(HEADERS).map(([t, h]) => [t, [h]])) as never;
  for (const day of days) {
    const k = scale(day);
    // 10 visitors, 12 visits, 30 pageviews, 6 bounces, 600 s.
    lines.visitors.push(`${day},${10 * k},${30 * k},${6 * k},${12 * k},${600 * k}`);
    lines.sources.push(
      `${day},Direct / None,,,,,,,${10 * k},${4 * k},${5 * k},${200 * k},${3 * k}`,
      `${day},Google,https://www.google.com/,,,,,,${8 * k},${3 * k},${3 * k},${150 * k},${1 * k}`,
      `${day},Newsletter,,newsletter,email,"spring, sale",,,${12 * k},${3 * k},${4 * k},${250 * k},${2 * k}`,
    );
    lines.pages.push(`${day},example.com,/,${8 * k},${7 * k},${14 * k},,`, `${day},example.com,/pricing,${5 * k},${4 * k},${10 * k},,`, `${day},Blog.Example.com,/blog/a,${3 * k},${3 * k},${6 * k},,`);
    lines.entry_pages.push(`${day},/,${7 * k},${8 * k},${400 * k},${4 * k},${20 * k}`, `${day},/blog/a,${3 * k},${4 * k},${200 * k},${2 * k},${10 * k}`);
    lines.exit_pages.push(`${day},/pricing,${6 * k},${300 * k},${7 * k},${3 * k},${18 * k}`, `${day},/,${4 * k},${300 * k},${5 * k},${3 * k},${12 * k}`);
    lines.locations.push(`${day},FR,FR-IDF,2988507,${6 * k},${7 * k},${360 * k},${4 * k},${18 * k}`, `${day},DE,,0,${4 * k},${5 * k},${240 * k},${2 * k},${12 * k}`);
    lines.devices.push(`${day},Desktop,${6 * k},${7 * k},${400 * k},${3 * k},${20 * k}`, `${day},Mobile,${4 * k},${5 * k},${200 * k},${3 * k},${10 * k}`);
    lines.browsers.push(`${day},Chrome,120.0,${5 * k},${6 * k},${300 * k},${3 * k},${15 * k}`, `${day},Chrome,121.0,${1 * k},${1 * k},${50 * k},${0},${3 * k}`, `${day},Mobile Safari,17.1,${4 * k},${5 * k},${250 * k},${3 * k},${12 * k}`);
    lines.operating_systems.push(`${day},Mac,14,${6 * k},${7 * k},${400 * k},${3 * k},${20 * k}`, `${day},GNU/Linux,,${4 * k},${5 * k},${200 * k},${3 * k},${10 * k}`);
    lines.custom_events.push(`${day},Signup,,,${2 * k},${3 * k}`);
  }
  const from = days[0]!.replaceAll('-', '');
  const to = days[days.length - 1]!.replaceAll('-', '');
  return Object.fromEntries(Object.entries(lines).map(([table, rows]) => [`imported_${table}_${from}_${to}.csv`, rows.join('\n') + '\n']));
}

/** Each field of a header in double quotes, as ClickHouse's CSVWithNames writes them. */
export const quoted = (header: string) => header.split(',').map((c) => `"${c}"`).join(',');

/**
 * The tables of Plausible's first CSV export (early 2024), as its importer's tests write them: no
 * pageviews beside the session columns, sources without referrer and utm_source, pages without
 * visits, exit pages with visitors and exits alone, and some columns in another order.
 */
export const FIRST_HEADERS = {
  visitors: 'date,visitors,pageviews,bounces,visits,visit_duration',
  sources: 'date,source,utm_medium,utm_campaign,utm_content,utm_term,visitors,visits,visit_duration,bounces',
  pages: 'date,visitors,pageviews,hostname,page',
  entry_pages: 'date,visitors,entrances,visit_duration,bounces,entry_page',
  exit_pages: 'date,visitors,exits,exit_page',
  locations: 'date,country,region,city,visitors,visits,visit_duration,bounces',
  devices: 'date,device,visitors,visits,visit_duration,bounces',
  browsers: 'date,browser,visitors,visits,visit_duration,bounces',
  operating_systems: 'date,operating_system,visitors,visits,visit_duration,bounces',
  custom_events: 'date,name,link_url,path,visitors,events',
} as const;

/** Per day, 10 visitors, 12 visits, 30 pageviews, 6 bounces and 600 s, in the first export's tables, quoted; `exit` one of the exit pages. */
export function firstExport(days: readonly string[], exit: string): ExportFiles {
  const lines: Record<keyof typeof FIRST_HEADERS, string[]> = Object.fromEntries(Object.entries(FIRST_HEADERS).map(([t, h]) => [t, [quoted(h)]])) as never;
  for (const day of days) {
    const d = `"${day}"`;
    lines.visitors.push(`${d},10,30,6,12,600`);
    lines.sources.push(`${d},"","","","","",4,5,200,3`, `${d},"Google","organic","","","",3,3,150,1`, `${d},"Newsletter","email","spring","","",3,4,250,2`);
    lines.pages.push(`${d},7,14,"example.com","/"`, `${d},4,10,"example.com","/pricing"`, `${d},3,6,"blog.example.com","/blog/a"`);
    lines.entry_pages.push(`${d},7,8,400,4,"/"`, `${d},3,4,200,2,"/blog/a"`);
    lines.exit_pages.push(`${d},6,7,"${exit}"`, `${d},4,5,"/elsewhere"`);
    lines.locations.push(`${d},"FR","FR-IDF",2988507,6,7,360,4`, `${d},"DE","",0,4,5,240,2`);
    lines.devices.push(`${d},"Desktop",6,7,400,3`, `${d},"Mobile",4,5,200,3`);
    lines.browsers.push(`${d},"Chrome",6,7,350,3`, `${d},"Safari",4,5,250,3`);
    lines.operating_systems.push(`${d},"Mac",6,7,400,3`, `${d},"GNU/Linux",4,5,200,3`);
    lines.custom_events.push(`${d},"Signup","","",2,3`);
  }
  const span = `${days[0]!.replaceAll('-', '')}_${days.at(-1)!.replaceAll('-', '')}`;
  return Object.fromEntries(Object.entries(lines).map(([table, rows]) => [`imported_${table}_${span}.csv`, rows.join('\n') + '\n']));
}

/** A ZIP of files (written by svc's own ZIP writer), as one buffer. */
export async function zipOf(files: ExportFiles): Promise<Buffer> {
  const sources: ZipSource[] = Object.entries(files).map(([name, text]) => ({ name, bytes: (async function* () { yield text; })() }));
  const parts: Buffer[] = [];
  for await (const part of zipStream(sources)) parts.push(part);
  return Buffer.concat(parts);
}

/** The export of `days` uploaded as a site's import through the admin API, and its job run to the end. */
export async function uploadPlausibleExport(server: TestServer, siteId: string, days: readonly string[]): Promise<void> {
  const created = await uploadImport(server, siteId, await zipOf(plausibleExport(days)));
  assert.equal(created.status, 202, JSON.stringify(created.body));
  await server.ctx.imports.runNow();
  const [job] = (await server.admin('GET', `/sites/${siteId}/imports`)).body.imports;
  assert.equal(job.status, 'done', job.error);
}
