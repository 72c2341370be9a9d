// A stand-in of ClickHouse's HTTP interface over chdb (the ClickHouse engine as a library, npm
// package `chdb`): every statement runs in the real engine, on a data folder of its own. Run as a
// child process (`node --import tsx support/clickhouse-chdb.ts <folder>`): it listens on a port of
// the system's choosing on 127.0.0.1, writes `listening on <port>` as its first line, and stops when
// told (SIGTERM) or when its stdin ends (its parent is gone).
//
// What it takes as the server does: the statement in the body or the `query` parameter (the two
// joined by a line), the `database` parameter, every other parameter as a setting of that statement
// alone, `query_id` (a second request with the id of one still under way is refused, code 216),
// user `default` without password (Basic, `user`/`password` or `X-ClickHouse-User`/`-Key`), the
// answer in the statement's FORMAT (TabSeparated without one), `X-ClickHouse-*` headers, and an
// error as the status the server gives its code with `Code: N. DB::Exception: …` as the body.
// What it does not: other users or passwords, sessions, query parameters (`param_*`), async
// inserts, an error after the answer has begun (the engine gives a whole answer or an error),
// cancelling a statement when its client goes away, `system.query_log`. The engine runs one
// statement at a time per process: requests wait their turn, as the engine would make them.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'chdb';

/** HTTP statuses of the error codes the server maps to one (its HTTPHandler); other codes answer 500. */
const STATUS_OF_CODE: ReadonlyArray<[number, readonly number[]]> = [
  // BAD_ARGUMENTS, the CANNOT_PARSE_* family, DUPLICATE_COLUMN, ILLEGAL_COLUMN, SYNTAX_ERROR, TYPE_MISMATCH, INCORRECT_DATA, VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  [400, [36, 6, 25, 26, 27, 38, 41, 72, 376, 15, 44, 62, 53, 117, 321]],
  // UNKNOWN_TABLE, _FUNCTION, _IDENTIFIER, _TYPE, _STORAGE, _DATABASE, _SETTING, _AGGREGATE_FUNCTION, _FORMAT, _DATABASE_ENGINE
  [404, [60, 46, 47, 50, 56, 81, 115, 63, 73, 336]],
  // TIMEOUT_EXCEEDED
  [408, [159]],
  // NOT_IMPLEMENTED
  [501, [48]],
  // AUTHENTICATION_FAILED
  [403, [516]],
];
/** Request parameters that are not settings. */
const NOT_SETTINGS = new Set(['query', 'database', 'query_id', 'default_format', 'user', 'password']);
const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

class Refusal extends Error {
  constructor(
    readonly code: number,
    words: string,
  ) {
    super(`Code: ${code}. DB::Exception: ${words}`);
  }
}

const folder = process.argv[2];
if (!folder) throw new Error('usage: clickhouse-chdb.ts <data folder>');
// The server's users profile runs a statement on 2 threads.
const engine = new Session(folder, { connectionArgs: ['--max_threads=2'] });
const version = (await engine.queryAsync('SELECT version()', { format: 'TabSeparated' })).text().trim();
const underWay = new Set<string>();
let turn: Promise<unknown> = Promise.resolve();

/** `work` after every statement before it: one at a time, each with its own database and settings. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const next = turn.then(work);
  turn = next.catch(() => undefined);
  return next;
}

/** A setting's value as SQL: a number as it is, anything else a quoted string. */
function settingValue(value: string): string {
  return /^-?\d+(\.\d+)?$/.test(value) ? value : `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

function credentials(req: IncomingMessage, params: URLSearchParams): { user: string; password: string } {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const text = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    return { user: text.slice(0, colon), password: text.slice(colon + 1) };
  }
  const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
  return { user: params.get('user') ?? header('x-clickhouse-user') ?? 'default', password: params.get('password') ?? header('x-clickhouse-key') ?? '' };
}

/** The format an answer is in: the statement's last FORMAT clause of a read, else the default. */
function formatOf(statement: string, fallback: string): string {
  if (/^\s*INSERT\b/i.test(statement)) return fallback;
  return /\bFORMAT\s+([A-Za-z]+)\s*;?\s*$/i.exec(statement)?.[1] ?? fallback;
}

async function run(req: IncomingMessage, body: string): Promise<{ answer: Uint8Array; format: string; queryId: string; summary: Record<string, string> }> {
  const params = new URL(req.url ?? '/', 'http://stand-in').searchParams;
  const { user, password } = credentials(req, params);
  if (user !== 'default' || password !== '') throw new Refusal(516, `${user}: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)`);
  const statement = [params.get('query') ?? '', body].filter((part) => part !== '').join('\n');
  if (statement.trim() === '') throw new Refusal(62, 'Empty query. (SYNTAX_ERROR)');
  const database = params.get('database') ?? 'default';
  if (!IDENTIFIER.test(database)) throw new Refusal(81, `Database ${database} does not exist. (UNKNOWN_DATABASE)`);
  const settings: string[] = [];
  for (const [name, value] of params) {
    if (NOT_SETTINGS.has(name)) continue;
    if (name.startsWith('param_') || !SETTING_NAME.test(name)) throw new Refusal(115, `Setting ${name} is not taken by this stand-in. (UNKNOWN_SETTING)`);
    settings.push(`${name} = ${settingValue(value)}`);
  }
  const queryId = params.get('query_id') ?? randomUUID();
  if (underWay.has(queryId)) throw new Refusal(216, `Query with id = ${queryId} is already running. (QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING)`);
  underWay.add(queryId);
  try {
    return await inTurn(async () => {
      await engine.queryAsync(`USE ${database}`);
      if (settings.length > 0) await engine.queryAsync(`SET ${settings.join(', ')}`);
      try {
        const format = formatOf(statement, params.get('default_format') ?? 'TabSeparated');
        const result = await engine.queryAsync(statement, { format });
        const summary = { read_rows: String(result.rowsRead), read_bytes: String(result.bytesRead), elapsed_ns: String(Math.round(result.elapsed * 1e9)) };
        return { answer: result.bytes(), format, queryId, summary };
      } finally {
        // The statement's settings end with it: the next request starts from the defaults.
        for (const setting of settings) await engine.queryAsync(`SET ${setting.slice(0, setting.indexOf(' '))} = DEFAULT`).catch(() => undefined);
      }
    });
  } finally {
    underWay.delete(queryId);
  }
}

function contentType(format: string): string {
  if (format.startsWith('JSON')) return 'application/json; charset=UTF-8';
  return format.startsWith('TabSeparated') || format.startsWith('TSV') ? 'text/tab-separated-values; charset=UTF-8' : 'text/plain; charset=UTF-8';
}

function answerError(res: ServerResponse, err: unknown): void {
  const coded = err as { clickhouseCode?: number; code?: unknown; message?: string };
  const code = err instanceof Refusal ? err.code : (coded.clickhouseCode ?? 1001);
  const message = String(coded.message ?? err);
  const words = message.startsWith('Code: ') ? message : `Code: ${code}. DB::Exception: ${message}`;
  const status = STATUS_OF_CODE.find(([, codes]) => codes.includes(code))?.[0] ?? 500;
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Exception-Code': String(code), 'X-ClickHouse-Server-Display-Name': 'chdb' });
  res.end(`${words} (version ${version})\n`);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    run(req, Buffer.concat(chunks).toString('utf8')).then(
      ({ answer, format, queryId, summary }) => {
        res.writeHead(200, {
          'Content-Type': contentType(format),
          'X-ClickHouse-Query-Id': queryId,
          'X-ClickHouse-Format': format,
          'X-ClickHouse-Timezone': 'UTC',
          'X-ClickHouse-Server-Display-Name': 'chdb',
          'X-ClickHouse-Summary': JSON.stringify(summary),
        });
        res.end(answer);
      },
      (err: unknown) => answerError(res, err),
    );
  });
});
// The server's shipped keep_alive_timeout, 3 s.
server.keepAliveTimeout = 3_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on ${(server.address() as AddressInfo).port}\n`));
const stop = () => {
  server.close();
  server.closeAllConnections();
  void turn.then(() => {
    engine.close();
    process.exit(0);
  });
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// Its parent holds its stdin: the end of stdin is the parent gone, killed without stopping it.
process.stdin.once('end', stop).resume();
