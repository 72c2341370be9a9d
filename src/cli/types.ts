// Shapes shared by the CLI's command files: a noun (`site`) groups verbs (`add`, `list`, …).
import type { AdminClient } from './client.js';
import type { Output } from './output.js';

/** One option, in node:util parseArgs form. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
}

export interface Invocation {
  /** Option values by long name (strings, booleans, or arrays for `multiple`). */
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** The admin client, created on first use (so `help` never needs a token). */
  client(): AdminClient;
  out: Output;
  /** Throws a UsageError carrying this command's usage line. */
  usage(problem: string): never;
}

export interface Command {
  /** `add`, `list`, …; undefined for a noun that is itself the command (`svc import FILE`). */
  verb?: string;
  /** The usage line, e.g. `svc org add NAME`. */
  usage: string;
  summary: string;
  /** Command-specific options; the global ones (--url, --token, --json, --help) are always added. */
  options?: Record<string, OptionSpec>;
  /** Names of the positional arguments, in order (all required); e.g. ['NAME']. */
  args?: string[];
  /** An example line for help and docs. */
  example?: string;
  run(inv: Invocation): Promise<void>;
}

export interface Noun {
  name: string;
  summary: string;
  commands: Command[];
}
