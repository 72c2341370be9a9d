// svc import FILE --site ID: streams an NDJSON file to the import endpoint, with a progress bar.
import { createReadStream, statSync } from 'node:fs';
import { required } from '../args.js';
import { seg } from '../client.js';
import { CliError } from '../errors.js';
import { formatFields, formatTable, ProgressBar } from '../output.js';
import type { Noun } from '../types.js';

interface ImportReport {
  accepted: number;
  rejected: number;
  errors: Array<{ line: number; reason: string }>;
}

/** How many of the report's errors the readable output lists. */
const SHOWN_ERRORS = 10;

/** The chunks of `source`, counted into the progress bar as they are handed to fetch. */
async function* counted(source: AsyncIterable<Buffer>, bar: ProgressBar | undefined): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    bar?.advance(chunk.length);
    yield chunk;
  }
  bar?.status('sent; waiting for the server to store the events…');
}

export function formatReport(report: ImportReport): string {
  let text = formatFields([['accepted', report.accepted], ['rejected', report.rejected]]);
  if (report.errors.length > 0) {
    const shown = report.errors.slice(0, SHOWN_ERRORS);
    text += `\nfirst errors:\n` + formatTable(['LINE', 'REASON'], shown.map((e) => [e.line, e.reason]));
    const more = report.rejected - shown.length;
    if (more > 0) text += `… and ${more} more rejected line${more === 1 ? '' : 's'} (--json lists the first ${report.errors.length})\n`;
  }
  return text;
}

export const importNoun: Noun = {
  name: 'import',
  summary: 'import historical events from an NDJSON file',
  commands: [
    {
      usage: 'svc import FILE --site ID',
      summary:
        'stream an NDJSON file (one event a line: {ts, ua, u, ip?, r?, w?, l?, e?, p?, country?, region?, city?}; FILE - reads stdin); returns once the events are queryable',
      options: { site: { type: 'string' } },
      args: ['FILE'],
      example: 'svc import events-2024-05.ndjson --site k3f9a1b2c4d5',
      async run(inv) {
        const file = inv.positionals[0]!;
        const siteId = required(inv, 'site');
        let source: AsyncIterable<Buffer>;
        let bar: ProgressBar | undefined;
        if (file === '-') {
          source = process.stdin;
        } else {
          let size: number;
          try {
            const stat = statSync(file);
            if (!stat.isFile()) throw new CliError(`cannot read ${file}: not a regular file`);
            size = stat.size;
          } catch (err) {
            if (err instanceof CliError) throw err;
            const code = (err as NodeJS.ErrnoException).code;
            throw new CliError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code ?? String(err)}`);
          }
          source = createReadStream(file, { highWaterMark: 256 * 1024 });
          bar = new ProgressBar(inv.out.stderr, size, 'importing ');
        }
        let report: ImportReport;
        try {
          report = await inv.client().request<ImportReport>('POST', `/sites/${seg(siteId)}/events/import`, undefined, {
            rawBody: counted(source, bar),
            contentType: 'application/x-ndjson',
          });
        } finally {
          bar?.finish();
        }
        inv.out.result(report, () => formatReport(report));
      },
    },
  ],
};
