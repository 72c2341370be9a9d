// The registry of CLI nouns. Each noun lives in one file under ./commands and exports a `Noun`:
// its name, a one-line summary, and its commands (verb, usage line, options, positional args, run).
//
// To add a noun (this is how `svc alert add|list|rm|test|history` was added):
//   1. create src/cli/commands/alert.ts exporting `export const alert: Noun = { name: 'alert', summary, commands: [...] }`
//      (copy commands/goal.ts as a model: options in node:util parseArgs form, `required(inv, 'site')`
//      for mandatory options, `inv.client().request(method, path, body)` for the admin API,
//      `inv.out.result(json, () => formatTable(...))` so that --json prints the raw answer);
//   2. import it below and append it to NOUNS (the order here is the order in `svc help`);
//   3. document it in docs/cli.md and add a case to test/cli/cli.test.ts.
// Global options (--url, --token, --json, --help), help output, usage errors, exit codes and the
// one-line error messages are handled by main.ts for every command; a command never parses argv.
import { alert } from './commands/alert.js';
import { demo } from './commands/demo.js';
import { digest } from './commands/digest.js';
import { funnel } from './commands/funnel.js';
import { goal } from './commands/goal.js';
import { importNoun } from './commands/import.js';
import { key } from './commands/key.js';
import { maintenance } from './commands/maintenance.js';
import { member } from './commands/member.js';
import { org } from './commands/org.js';
import { relayKey } from './commands/relay-key.js';
import { site } from './commands/site.js';
import { snippet } from './commands/snippet.js';
import { user } from './commands/user.js';
import { watch } from './commands/watch.js';
import { stats } from './commands/stats.js';
import type { Noun } from './types.js';

export const NOUNS: Noun[] = [org, site, key, relayKey, goal, funnel, alert, digest, user, member, importNoun, maintenance, snippet, watch, stats, demo];

export function findNoun(name: string): Noun | undefined {
  return NOUNS.find((n) => n.name === name);
}
