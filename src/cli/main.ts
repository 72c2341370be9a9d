// The CLI's dispatcher: finds the noun and verb, parses options with node:util parseArgs, resolves
// the server address and token, runs the command and turns every failure into one line on stderr.
import { parseArgs } from 'node:util';
import { AdminClient, DEFAULT_URL, resolveConnection } from './client.js';
import { CliError, UsageError } from './errors.js';
import { Output, type Stream } from './output.js';
import { findNoun, NOUNS } from './registry.js';
import type { Command, Invocation, Noun, OptionSpec } from './types.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};
const VALUE_GLOBALS = new Set(['--url', '--token']);

export interface Io {
  stdout: Stream;
  stderr: Stream;
  env: NodeJS.ProcessEnv;
}

function overallHelp(): string {
  const rows = NOUNS.flatMap((noun) => noun.commands.map((c) => [c.usage, c.summary.split(/ \(|: |; /)[0]!] as const));
  const width = Math.min(44, Math.max(...rows.map(([u]) => u.length)));
  const lines = rows.map(([u, s]) => (u.length > width ? `  ${u}\n  ${' '.repeat(width)}  ${s}` : `  ${u.padEnd(width)}  ${s}`));
  return [
    'svc: command line for the svc admin API',
    '',
    'usage: svc <command> [options]',
    '',
    'commands:',
    ...lines,
    '  svc help [NOUN]',
    '',
    'global options:',
    `  --url URL      server address (env SVC_URL, else <SVC_DATA_DIR or ./data>/server-url, else 127.0.0.1:$PORT, else ${DEFAULT_URL})`,
    '  --token TOKEN  admin token (env SVC_ADMIN_TOKEN, else the file <SVC_DATA_DIR or ./data>/admin-token)',
    '  --json         print the raw JSON answer instead of a table',
    '  -h, --help     help for a command, e.g. `svc site --help`',
    '',
    'exit status: 0 success, 1 error (explained on stderr), 2 usage error',
    '',
  ].join('\n');
}

function commandHelp(command: Command): string {
  const lines = [`usage: ${command.usage}`, `  ${command.summary}`];
  if (command.example) lines.push(`  example: ${command.example}`);
  return lines.join('\n') + '\n';
}

function nounHelp(noun: Noun): string {
  return `svc ${noun.name}: ${noun.summary}\n\n` + noun.commands.map(commandHelp).join('\n') + '\nglobal options: --url URL, --token TOKEN, --json, --help (see `svc help`)\n';
}

const nounUsage = (noun: Noun) => noun.commands.map((c) => c.usage).join('\n       ');

/** Noun, verb and remaining arguments; global options before the words are left in the rest. */
function splitWords(argv: string[]): { noun?: string; verb?: string; rest: string[] } {
  const rest: string[] = [];
  let noun: string | undefined;
  let verb: string | undefined;
  let nounObj: Noun | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (token.startsWith('-') && token !== '-') {
      rest.push(token);
      if (VALUE_GLOBALS.has(token) && i + 1 < argv.length) rest.push(argv[++i]!);
      continue;
    }
    if (noun === undefined) {
      noun = token;
      nounObj = findNoun(token);
      continue;
    }
    // A noun whose own command takes arguments (`svc import FILE`) reads a word as a verb only when it names one.
    if (verb === undefined && nounObj !== undefined && nounObj.commands.some((c) => c.verb !== undefined)) {
      const bare = nounObj.commands.some((c) => c.verb === undefined);
      if (!bare || nounObj.commands.some((c) => c.verb === token)) {
        verb = token;
        continue;
      }
    }
    rest.push(token);
  }
  return { noun, verb, rest };
}

function parse(command: Command, args: string[]) {
  const options = { ...GLOBAL_OPTIONS, ...(command.options ?? {}) };
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message.split(/\.\s/)[0]!.replace(/\.$/, '') : String(err);
    throw new UsageError(message.charAt(0).toLowerCase() + message.slice(1), command.usage);
  }
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  const { noun: nounName, verb, rest } = splitWords(argv);
  const wantsHelp = rest.includes('--help') || rest.includes('-h');

  if (nounName === undefined) {
    if (wantsHelp) {
      io.stdout.write(overallHelp());
      return EXIT_OK;
    }
    io.stderr.write(overallHelp());
    return EXIT_USAGE;
  }
  if (nounName === 'help') {
    const topic = verb ?? rest.find((r) => !r.startsWith('-'));
    const target = topic === undefined ? undefined : findNoun(topic);
    if (topic !== undefined && target === undefined) throw new UsageError(`unknown command ${JSON.stringify(topic)}`, 'svc help [NOUN]');
    io.stdout.write(target ? nounHelp(target) : overallHelp());
    return EXIT_OK;
  }
  const noun = findNoun(nounName);
  if (!noun) throw new UsageError(`unknown command ${JSON.stringify(nounName)}: see \`svc help\``);

  let command: Command | undefined;
  const bare = noun.commands.find((c) => c.verb === undefined);
  if (verb === undefined && bare) {
    command = bare;
  } else if (noun.commands.some((c) => c.verb !== undefined)) {
    if (verb === undefined) {
      if (wantsHelp) {
        io.stdout.write(nounHelp(noun));
        return EXIT_OK;
      }
      throw new UsageError(`missing command after "svc ${noun.name}"`, nounUsage(noun));
    }
    command = noun.commands.find((c) => c.verb === verb);
    if (!command) {
      if (wantsHelp) {
        io.stdout.write(nounHelp(noun));
        return EXIT_OK;
      }
      throw new UsageError(`unknown command "svc ${noun.name} ${verb}"`, nounUsage(noun));
    }
  } else {
    command = noun.commands[0]!;
  }
  if (wantsHelp) {
    const whole = command === bare && verb === undefined;
    io.stdout.write(!whole && (noun.commands.length > 1 || command.verb) ? commandHelp(command) : nounHelp(noun));
    return EXIT_OK;
  }

  const parsed = parse(command, rest);
  const usage = command.usage;
  const fail = (problem: string): never => {
    throw new UsageError(problem, usage);
  };
  const expected = command.args ?? [];
  if (parsed.positionals.length < expected.length) fail(`missing ${expected[parsed.positionals.length]}`);
  if (parsed.positionals.length > expected.length) fail(`unexpected argument ${JSON.stringify(parsed.positionals[expected.length])}`);
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === '' && (command.options?.[name] ?? GLOBAL_OPTIONS[name])?.type === 'string') fail(`--${name} needs a value`);
  }

  const values = parsed.values as Invocation['values'];
  const connection = resolveConnection({ url: values.url as string | undefined, token: values.token as string | undefined }, io.env);
  let client: AdminClient | undefined;
  const inv: Invocation = {
    values,
    positionals: parsed.positionals,
    client: () => (client ??= new AdminClient(connection)),
    out: new Output(values.json === true, io.stdout, io.stderr),
    usage: fail,
  };
  await command.run(inv);
  return EXIT_OK;
}

/** Runs the CLI; resolves with the exit status. Never throws. */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`svc: ${err.message}\n`);
      if (err.usage) io.stderr.write(`usage: ${err.usage}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof CliError) {
      io.stderr.write(`svc: ${err.message}\n`);
      return err.exitCode;
    }
    io.stderr.write(`svc: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_FAILURE;
  }
}
