// A statement's answer over ClickHouse's HTTP interface, for the reads: one request on a kept-alive
// connection, the statement as the body, its answer parsed whole. @clickhouse/client (which the
// store keeps for writes and DDL) spends about 0.3 ms of the event loop more on each statement (a
// stream pipeline for the body, abort controllers, a query id, the answer read as a stream), and a
// year's stats ask five statements at once: docs/performance.md, "Statistics API on ClickHouse".
import http from 'node:http';
import https from 'node:https';

/** How long a connection may sit idle before it is closed here: under the 3 s a server keeps one by default. */
const IDLE_SOCKET_MS = 2_000;
/** Connections at most, as @clickhouse/client opens by default. */
const MAX_SOCKETS = 10;

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

/** ClickHouse's own words for an error, as 18.16 (`Code: N, e.displayText() = DB::Exception: …`) and later servers (`Code: N. DB::Exception: …`) put them. */
export function clickHouseErrorOf(text: string, options?: ErrorOptions): ClickHouseError | null {
  const found = /Code: (\d+)[,.] (?:e\.displayText\(\) = )?(?:DB::Exception: )?([\s\S]*?)(?:, e\.what\(\) = [\s\S]*)?$/.exec(text.trim());
  return found ? new ClickHouseError(found[1]!, `ClickHouse error ${found[1]}: ${found[2]!.trim()}`, options) : null;
}

export class ClickHouseHttpReader {
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  private readonly authorization: string;

  constructor(
    private readonly server: URL,
    private readonly database: string,
    private readonly timeoutMs: number,
  ) {
    const secure = server.protocol === 'https:';
    this.request = secure ? https.request : http.request;
    this.agent = new (secure ? https.Agent : http.Agent)({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_SOCKET_MS });
    const user = decodeURIComponent(server.username) || 'default';
    this.authorization = `Basic ${Buffer.from(`${user}:${decodeURIComponent(server.password)}`).toString('base64')}`;
  }

  /**
   * The answer of `statement` in the JSON format, with `settings` for it alone. A statement on a
   * connection the server closed meanwhile (its idle time ran out as the request left) is sent again
   * once, on a new one: a read changes nothing.
   */
  async json<T>(statement: string, settings: Readonly<Record<string, string | number>>): Promise<T> {
    const params = new URLSearchParams({ database: this.database });
    for (const [name, value] of Object.entries(settings)) params.set(name, String(value));
    const path = `/?${params.toString()}`;
    const body = `${statement}\nFORMAT JSON`;
    try {
      return await this.send<T>(path, body);
    } catch (err) {
      if (!(err instanceof StaleConnection)) throw err;
      return this.send<T>(path, body);
    }
  }

  private send<T>(path: string, body: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const req = this.request({
        protocol: this.server.protocol,
        hostname: this.server.hostname,
        port: this.server.port,
        path,
        method: 'POST',
        agent: this.agent,
        headers: { Authorization: this.authorization, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) },
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`ClickHouse did not answer within ${this.timeoutMs / 1000} s`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        reject(stale ? new StaleConnection(err) : err);
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) {
            reject(clickHouseErrorOf(text) ?? new Error(`ClickHouse answered ${res.statusCode}: ${text.trim().slice(0, 500)}`));
            return;
          }
          try {
            resolve(JSON.parse(text) as T);
          } catch (err) {
            // An error met once the answer has begun ends the answer with the server's message.
            reject(clickHouseErrorOf(text.slice(-2_000), { cause: err }) ?? new Error(`ClickHouse's answer is not JSON: ${text.slice(-200)}`, { cause: err }));
          }
        });
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A request that failed on a kept-alive connection before any answer: the connection had been closed. */
class StaleConnection extends Error {
  constructor(cause: Error) {
    super(`ClickHouse closed a kept-alive connection: ${cause.message}`, { cause });
  }
}
