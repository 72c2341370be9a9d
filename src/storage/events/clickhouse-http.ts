// ClickHouse's HTTP interface, for every statement of the store: one request on a kept-alive
// connection, the statement (an INSERT's rows after it) as the body; a read's answer in the
// JSONCompact format (rows as arrays, the columns named once) parsed whole, a write's only checked.
// Every request keeps its error listener for its whole life: a server that answers an INSERT early
// and closes the connection while its rows are still being sent fails that write with EPIPE and
// never the process (@clickhouse/client, used before, let such an error escape).
import http from 'node:http';
import https from 'node:https';

/** How long a connection may sit idle before it is closed here: under the 3 s a server keeps one in its shipped configuration. */
const IDLE_SOCKET_MS = 2_000;
/** Connections at most. */
const MAX_SOCKETS = 10;
/**
 * The reads a process runs at once, as DuckDB's three read connections: the server runs each on a
 * thread per core, so more at once add no speed, and one organisation's two leave the third free
 * for another's (test/v1/fair-reads.test.ts). The other connections stay for writes.
 */
export const READ_SOCKETS = 3;
/**
 * How soon after its request a kept-alive connection's reset means the server had closed it while
 * idle (the request never reached a statement): a reset later may come from a server that was
 * running the statement, which is not sent again.
 */
const STALE_WINDOW_MS = 1_000;
/** The most of an answer held by default: a read's answer is bounded by its statement; past this, something is wrong. */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
/** The most of the server's words kept in an error's message. */
const MAX_MESSAGE_CHARS = 2_000;

/** A ClickHouse error: the server's code (`159` where a statement ran out of time) and its message. */
export class ClickHouseError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ClickHouseError';
  }
}

/**
 * ClickHouse's own words for an error that `text` starts with, as 18.16 (`Code: N, e.displayText() =
 * DB::Exception: …`) and later servers (`Code: N. DB::Exception: …`) put them; null where it starts
 * otherwise.
 */
export function clickHouseErrorOf(text: string, options?: ErrorOptions): ClickHouseError | null {
  const found = /^Code: (\d+)[,.] (?:e\.displayText\(\) = )?(?:DB::Exception: )?([\s\S]*?)(?:, e\.what\(\) = [\s\S]*)?$/.exec(text.trim());
  if (!found) return null;
  const words = found[2]!.trim();
  return new ClickHouseError(found[1]!, `ClickHouse error ${found[1]}: ${words.length > MAX_MESSAGE_CHARS ? `${words.slice(0, MAX_MESSAGE_CHARS)}…` : words}`, options);
}

/**
 * The error that ends an answer the server had begun (status 200) when the statement failed: it
 * writes its words after the last row it sent. Only words outside the answer's strings count, so
 * that rows holding `Code: …` (a page's path) are never taken for them.
 */
export function errorEndingAnswer(text: string, options?: ErrorOptions): ClickHouseError | null {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x43 && text.startsWith('Code: ', i)) return clickHouseErrorOf(text.slice(i), options);
  }
  return null;
}

/**
 * A JSONCompact answer of no rows whose totals were written before its opening, as ClickHouse 26.7
 * (the chdb library) answers a `WITH TOTALS` statement that groups nothing: `\n\t],\n\n\t"totals":
 * […]{\n\t"meta": …, "data":\n\t[\n,\n…`. The misplaced piece (the data array's end, then the
 * totals) goes back where the data array opened; null for any other answer. A line break and tab
 * never occur inside a JSON string, so the opening found is the answer's own.
 */
export function totalsPutBack(text: string): string | null {
  const opening = text.indexOf('{\n\t"meta"');
  if (opening <= 0 || !/^\s*\],\s*"totals":/.test(text.slice(0, opening))) return null;
  const answer = text.slice(opening);
  const emptyData = /("data":\s*\[)\s*,/.exec(answer);
  if (!emptyData) return null;
  const at = emptyData.index + emptyData[1]!.length;
  return `${answer.slice(0, at)}${text.slice(0, opening)},${answer.slice(emptyData.index + emptyData[0].length)}`;
}

/** A statement's settings, as the URL of its request carries them. */
export type StatementSettings = Readonly<Record<string, string | number>>;

/** What the JSONCompact format answers: the columns' names and types, the rows as arrays, and what the statement's settings add. */
export interface CompactAnswer {
  meta: Array<{ name: string; type: string }>;
  data: unknown[][];
  rows_before_limit_at_least?: number;
  totals?: unknown[];
  /** A later server's words for an error met once the answer had begun, as a key of a whole answer. */
  exception?: string;
}

export class ClickHouseHttp {
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  private readonly hostname: string;
  private readonly authorization: string;
  private readonly inFlight = new Set<http.ClientRequest>();
  private closed = false;

  /**
   * `database`: the statements' default database (none for `undefined`); `timeoutMs`: how long a
   * request may wait on the server without a byte from it; `maxAnswerBytes`: the longest answer taken.
   */
  constructor(
    private readonly server: URL,
    private readonly database: string | undefined,
    private readonly timeoutMs: number,
    private readonly maxAnswerBytes = MAX_ANSWER_BYTES,
  ) {
    const secure = server.protocol === 'https:';
    this.request = secure ? https.request : http.request;
    this.agent = new (secure ? https.Agent : http.Agent)({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_SOCKET_MS });
    // An IPv6 address keeps its brackets in a URL's hostname, not in a socket's.
    this.hostname = server.hostname.replace(/^\[(.*)\]$/, '$1');
    const user = decodeURIComponent(server.username) || 'default';
    this.authorization = `Basic ${Buffer.from(`${user}:${decodeURIComponent(server.password)}`).toString('base64')}`;
  }

  /**
   * The answer of `statement`, with `settings` for it alone. A statement whose kept-alive connection
   * the server had closed (its idle time ran out as the request left) is sent again once, on a new
   * connection: a read changes nothing.
   */
  async select(statement: string, settings: StatementSettings): Promise<CompactAnswer> {
    // 64-bit integers as JSON strings, exact, whatever the server's default (26.7's, as chdb ships it, is JSON numbers).
    const answer = await this.sendAgainIfStale(`${statement}\nFORMAT JSONCompact`, { ...settings, output_format_json_quote_64bit_integers: 1 });
    let parsed: CompactAnswer;
    try {
      parsed = JSON.parse(totalsPutBack(answer) ?? answer) as CompactAnswer;
    } catch (err) {
      throw errorEndingAnswer(answer, { cause: err }) ?? new Error(`ClickHouse's answer is not JSON: …${answer.slice(-200)}`, { cause: err });
    }
    // From 23.8 a server may close a failed answer as JSON, with its words as `exception`.
    if (typeof parsed.exception === 'string') throw clickHouseErrorOf(parsed.exception) ?? new Error(`ClickHouse: ${parsed.exception.slice(0, MAX_MESSAGE_CHARS)}`);
    return parsed;
  }

  /**
   * Runs `statement`, a write or a change of tables, with `settings` for it alone (`query_id`
   * among them); an INSERT's rows follow the statement's text in `statement`. Never sent again: a
   * connection reset soon after the request may also be a lost answer to a write the server did
   * (the caller retries what is idempotent, as `append` is).
   */
  async execute(statement: string, settings: StatementSettings = {}): Promise<void> {
    const answer = await this.send(this.pathWith(settings), statement, false).catch((err: unknown) => {
      throw err instanceof StaleConnection ? err.cause : err;
    });
    const failed = errorEndingAnswer(answer);
    if (failed) throw failed;
  }

  /** The answer's text of `body`, sent again once on a new connection when a kept-alive one was stale. */
  private async sendAgainIfStale(body: string, settings: StatementSettings): Promise<string> {
    const path = this.pathWith(settings);
    try {
      return await this.send(path, body, false);
    } catch (err) {
      if (!(err instanceof StaleConnection)) throw err;
      return this.send(path, body, true);
    }
  }

  /** The request's path: the database and a statement's settings. */
  private pathWith(settings: StatementSettings): string {
    const params = new URLSearchParams(this.database === undefined ? {} : { database: this.database });
    for (const [name, value] of Object.entries(settings)) params.set(name, String(value));
    return `/?${params.toString()}`;
  }

  private send(path: string, body: string, fresh: boolean): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      if (this.closed) return reject(new ConnectionClosed());
      let settled = false;
      let answered = false;
      const sentAt = Date.now();
      const req = this.request({
        protocol: this.server.protocol,
        hostname: this.hostname,
        port: this.server.port,
        path,
        method: 'POST',
        // A retry takes a connection of its own: the pool's other idle ones may have been closed too.
        agent: fresh ? false : this.agent,
        headers: { Authorization: this.authorization, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) },
      });
      const settle = (err: Error | null, answer?: string) => {
        if (settled) return;
        settled = true;
        this.inFlight.delete(req);
        if (err) reject(err);
        else resolve(answer!);
      };
      this.inFlight.add(req);
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`ClickHouse sent nothing for ${this.timeoutMs / 1000} s`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        const reset = err.code === 'ECONNRESET' || err.code === 'EPIPE';
        const stale = reset && !fresh && !answered && !this.closed && req.reusedSocket && Date.now() - sentAt < STALE_WINDOW_MS;
        settle(stale ? new StaleConnection(err) : err);
      });
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= this.maxAnswerBytes) return void chunks.push(chunk);
          settle(new Error(`ClickHouse's answer is longer than ${this.maxAnswerBytes} bytes`));
          req.destroy();
        });
        res.on('error', (err) => settle(err));
        res.on('end', () => {
          try {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) {
              return settle(clickHouseErrorOf(text) ?? new Error(`ClickHouse answered ${res.statusCode}: ${text.trim().slice(0, MAX_MESSAGE_CHARS)}`));
            }
            settle(null, text);
          } catch (err) {
            settle(err as Error);
          }
        });
      });
      req.end(body);
    });
  }

  /** Ends the requests under way (each fails) and the connections; requests made later fail at once. */
  close(): void {
    this.closed = true;
    for (const req of this.inFlight) req.destroy(new ConnectionClosed());
    this.agent.destroy();
  }
}

/** A request that failed on a kept-alive connection before any answer: the connection had been closed. */
class StaleConnection extends Error {
  constructor(cause: Error) {
    super(`ClickHouse closed a kept-alive connection: ${cause.message}`, { cause });
  }
}

class ConnectionClosed extends Error {
  constructor() {
    super('the ClickHouse connection is closed');
  }
}
