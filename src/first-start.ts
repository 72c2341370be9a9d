// What the service tells a person on start, apart from the JSON log lines: a plain framed block on
// stderr with what to do next, and the server-url file the `svc` command line finds the server by.
import { join, resolve } from 'node:path';
import { DEFAULT_DATA_DIR, SERVER_URL_FILE, writeWhole } from './core/data-files.js';

/** Frames lines (each one line of text) in a block a person notices among log lines. */
export function noticeBlock(lines: string[]): string {
  const rule = '='.repeat(Math.min(100, Math.max(40, ...lines.map((l) => l.length + 4))));
  return ['', rule, ...lines.map((l) => (l === '' ? '' : `  ${l}`)), rule, ''].join('\n');
}

export interface FirstStart {
  token: string;
  tokenFile: string;
  dataDir: string;
  /** Where people reach the service: SVC_PUBLIC_URL, else the local address it listens on. */
  publicUrl: string;
  /** The working directory the command line is likely run from (the server's own). */
  cwd: string;
}

/** The lines shown once, when this start generated the admin token. */
export function firstStartLines(start: FirstStart): string[] {
  // The CLI finds the token and the server under ./data by itself; elsewhere it needs SVC_DATA_DIR.
  const dataDirPrefix = resolve(start.cwd, DEFAULT_DATA_DIR) === start.dataDir ? '' : `SVC_DATA_DIR=${shellWord(start.dataDir)} `;
  return [
    'svc is running at ' + start.publicUrl,
    '',
    `Admin token (shown once):  ${start.token}`,
    `Stored in:                 ${start.tokenFile}`,
    '',
    'Create the first dashboard account there (the admin token is the setup token):',
    `  ${start.publicUrl}/setup`,
    '',
    'Or, without a browser, create an organisation with the svc command line:',
    `  ${dataDirPrefix}npx svc org add "My organisation"`,
  ];
}

/** A path as one shell word: quoted unless it is made of plain characters only. */
function shellWord(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Records the local address of a running server for the command line. */
export function writeServerUrl(dataDir: string, url: string): void {
  writeWhole(join(dataDir, SERVER_URL_FILE), url + '\n');
}
