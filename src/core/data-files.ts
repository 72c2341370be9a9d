// Files of the data dir that the `svc` command line reads too: the server writes them, the CLI finds
// them under SVC_DATA_DIR (default ./data), so that it reaches the server whatever PORT it runs on.
import { renameSync, writeFileSync } from 'node:fs';

/** The generated admin token (one line), written on the first start when SVC_ADMIN_TOKEN is unset. */
export const ADMIN_TOKEN_FILE = 'admin-token';

/** The local address the server listens on (one line, e.g. http://127.0.0.1:8000), written at every start. */
export const SERVER_URL_FILE = 'server-url';

/** The folder of the data dir where import uploads and imports' bodies wait on disk. */
export const IMPORTS_FOLDER = 'imports';

/** The data dir when SVC_DATA_DIR is unset, relative to the working directory. */
export const DEFAULT_DATA_DIR = './data';

/** Writes a data-dir file whole or not at all (a temp file renamed into place), readable by its owner only. */
export function writeWhole(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}
