// svc import ga4 --property ID --key FILE --site ID: starts an import of a GA4 property through
// Google's Data API with a service account's key (read from FILE and sent once; the server uses it
// for the job and never stores it), follows the job with a progress bar, and prints its report.
import { readFileSync, statSync } from 'node:fs';
import { optional, required } from '../args.js';
import { seg } from '../client.js';
import { CliError } from '../errors.js';
import type { Command } from '../types.js';
import { followImport, formatImportReport } from './import-tool.js';

/** A key file is about 2.4 KB; anything far larger is another file. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/** The key file's JSON; the refusal never quotes the file (it is the key). */
function readKeyFile(path: string): unknown {
  let text: string;
  try {
    if (statSync(path).size > MAX_KEY_FILE_BYTES) throw new CliError(`${path} is larger than a service account's key file (${MAX_KEY_FILE_BYTES} bytes at most)`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(err))}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not JSON: give the key file Google Cloud downloads for a service account (Keys, Add key, JSON)`);
  }
}

export const ga4ImportCommand: Command = {
  verb: 'ga4',
  usage: 'svc import ga4 --property ID --key FILE --site ID [--from YYYY-MM-DD] [--to YYYY-MM-DD]',
  summary:
    "import a GA4 property through Google's Data API as daily aggregates, with a service account's JSON key that can read it (sent once, never stored); " +
    "from its first day with data (or --from) to yesterday (or --to); waits for the job and prints its report (days holding events are skipped; a later import replaces the days it covers)",
  options: { site: { type: 'string' }, property: { type: 'string' }, key: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
  example: 'svc import ga4 --property 312345678 --key ga4-reader.json --site k3f9a1b2c4d5',
  async run(inv) {
    const site = required(inv, 'site');
    const property = required(inv, 'property');
    const key = readKeyFile(required(inv, 'key'));
    const client = inv.client();
    const { importId } = await client.request<{ importId: string }>('POST', `/sites/${seg(site)}/imports/ga4`, { property, key, from: optional(inv, 'from'), to: optional(inv, 'to') });
    const job = await followImport(client, site, importId, inv.out.stderr);
    inv.out.result(job, () => formatImportReport(job));
    if (job.status === 'failed') throw new CliError(`the import failed: ${job.error}`);
  },
};
