// The process log and what it says of a request. Links that carry a secret in their path (an
// invitation's `/invitations/<token>`, and the read side's of it; a shared link's `/share/<token>`; a
// report's `/unsubscribe/<token>`)
// must not leave it in the log, where anyone who reads the log could use it: the path segment after
// `/invitations/`, `/share/` or `/unsubscribe/` (also URL-encoded) is logged as `[secret]`. The log is JSON lines for log collectors, or, for a person
// at a terminal, one readable line per request (time, method, path, status, milliseconds).
import { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';
import type { LogFormat } from '../config.js';

/**
 * The routes whose next path segment is a secret: the invitation page and its /app/v1 endpoints, the
 * shared link's page, and the same paths encoded in a query (the sign-in link's
 * `next=%2Finvitations%2F<token>`).
 */
const SECRET_SEGMENT = /((?:\/|%2F)(?:invitations|share|unsubscribe)(?:\/|%2F))[^/?#&%]+/gi;

export function redactSecrets(url: string): string {
  return url.replace(SECRET_SEGMENT, '$1[secret]');
}

/**
 * pino serializers for the process logger: Fastify's request fields, with secrets taken out of the
 * URL; a response names its request too, so that the line of a completed request stands alone.
 */
export const requestLogSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: redactSecrets(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
  res: (reply: FastifyReply) => ({
    statusCode: reply.statusCode,
    method: reply.request?.method,
    url: reply.request ? redactSecrets(reply.request.url) : undefined,
  }),
};

/** JSON unless asked otherwise, but readable lines when a person watches the terminal. */
export function resolveLogFormat(configured: LogFormat | undefined, stdoutIsTerminal: boolean): LogFormat {
  return configured ?? (stdoutIsTerminal ? 'pretty' : 'json');
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

interface LogRecord {
  level?: number;
  time?: number;
  msg?: string;
  req?: unknown;
  res?: { statusCode?: number; method?: string; url?: string };
  responseTime?: number;
  err?: { message?: string; stack?: string };
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * One JSON record of the log as a person reads it: `12:04:05 GET /v1/sites/x/stats 200 4 ms` for a
 * completed request, `12:04:05 WARN <message>` for anything else (with the error's stack under it).
 * The line Fastify writes when a request comes in is left out (its completion says it all): "".
 */
export function prettyLogLine(record: LogRecord): string {
  if (record.req !== undefined && record.res === undefined) return '';
  const at = new Date(record.time ?? Date.now());
  const time = `${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())}:${twoDigits(at.getSeconds())}`;
  const { res } = record;
  if (res && record.responseTime !== undefined) return `${time} ${res.method ?? '?'} ${res.url ?? '?'} ${res.statusCode ?? '?'} ${Math.round(record.responseTime)} ms`;
  const level = LEVEL_NAMES[record.level ?? 30] ?? String(record.level);
  const error = record.err ? `\n${record.err.stack ?? record.err.message ?? ''}` : '';
  return `${time} ${level} ${record.msg ?? ''}${error}`;
}

/** A stream that writes pino's JSON lines to `out` as prettyLogLine says them. */
function prettyStream(out: { write(text: string): unknown }): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === '') continue;
        let text: string;
        try {
          text = prettyLogLine(JSON.parse(line) as LogRecord);
        } catch {
          text = line;
        }
        if (text !== '') out.write(`${text}\n`);
      }
      done();
    },
  });
}

/** The process logger at `level`, writing in `format` to `out`, or to stdout (synchronously, so that the last lines before an exit are written). */
export function processLogger(level: string, format: LogFormat, out?: Writable): Logger {
  const options = { level, serializers: requestLogSerializers };
  if (format === 'json') return out ? pino(options, out) : pino(options);
  return pino(options, prettyStream(out ?? pino.destination({ dest: 1, sync: true })));
}
