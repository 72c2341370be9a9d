// The data folder holds webhook secrets, the daily salts and the admin token: only the service's
// own user may read it. The process creates it 0700 and its files 0600 (main.ts sets the umask for
// the files the storage engines create); a folder or file left readable by others (an older
// version, a copy) is tightened at start, with a warning naming it.
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Permission bits for group and others. */
const OTHERS = 0o077;

/** Creates the data folder (0700) or tightens it and what is directly in it; returns what it tightened. */
export function prepareDataDir(dir: string): string[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tightened: string[] = [];
  const tighten = (path: string) => {
    const mode = statSync(path).mode & 0o777;
    if ((mode & OTHERS) === 0) return;
    chmodSync(path, mode & ~OTHERS);
    tightened.push(`${path} (${mode.toString(8)} -> ${(mode & ~OTHERS).toString(8)})`);
  };
  tighten(dir);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // A link's target lies outside the folder: not the service's to change.
    if (!lstatSync(path).isSymbolicLink()) tighten(path);
  }
  return tightened;
}
