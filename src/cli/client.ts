// A small client of the admin API (docs/admin-api.md): bearer token, JSON in and out, and every
// failure turned into a one-line CliError (the API envelope's `code: message`, unreachable server, 401).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE, DEFAULT_DATA_DIR, SERVER_URL_FILE } from '../core/data-files.js';
import type { ErrorCode, ErrorReason } from '../core/errors.js';
import { CliError, ServerRefusal } from './errors.js';

export const DEFAULT_URL = 'http://127.0.0.1:8000';

export interface Connection {
  url: string;
  token: string | undefined;
}

/** The first line of a data-dir file, or undefined when it is missing or empty. */
function readDataFile(env: NodeJS.ProcessEnv, name: string): string | undefined {
  try {
    return readFileSync(join(env.SVC_DATA_DIR || DEFAULT_DATA_DIR, name), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Server URL and admin token, each from the first of these that gives one (docs/cli.md):
 * URL: --url, SVC_URL, the data dir's server-url file (the running server's address), PORT on
 * 127.0.0.1, else http://127.0.0.1:8000. Token: --token, SVC_ADMIN_TOKEN, the data dir's admin-token
 * file. The data dir is SVC_DATA_DIR, else ./data: the same variables as the server's.
 */
export function resolveConnection(flags: { url?: string; token?: string }, env: NodeJS.ProcessEnv): Connection {
  const rawUrl = flags.url ?? (env.SVC_URL || undefined) ?? readDataFile(env, SERVER_URL_FILE) ?? (env.PORT ? `http://127.0.0.1:${env.PORT}` : DEFAULT_URL);
  let parsed: URL;
  try {
    parsed = new URL(rawUrl);
  } catch {
    throw new CliError(`invalid server URL ${JSON.stringify(rawUrl)}: expected e.g. ${DEFAULT_URL}`, 2);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`invalid server URL ${JSON.stringify(rawUrl)}: use http:// or https://`, 2);
  }
  const url = rawUrl.replace(/\/+$/, '');
  const token = flags.token ?? (env.SVC_ADMIN_TOKEN || undefined) ?? readDataFile(env, ADMIN_TOKEN_FILE);
  return { url, token };
}

function describeNetworkError(err: unknown, url: string): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new CliError(`cannot reach svc at ${url}: is it running? (${code})`);
  }
  const detail = cause?.message ?? (err instanceof Error ? err.message : String(err));
  return new CliError(`cannot reach svc at ${url}: is it running? (${detail})`);
}

export class AdminClient {
  constructor(readonly connection: Connection) {}

  get url(): string {
    return this.connection.url;
  }

  /** Sends a request to /admin/v1 + path; resolves with the parsed JSON answer (undefined for 204). */
  async request<T = any>(method: string, path: string, body?: unknown, init: { rawBody?: AsyncIterable<Uint8Array>; contentType?: string } = {}): Promise<T> {
    return (await this.answer<T>(method, path, body, init)).body;
  }

  /** GET /admin/v1 + path: the parsed JSON answer with the response's headers (a read's notices travel in them). */
  read<T = any>(path: string): Promise<{ body: T; headers: Headers }> {
    return this.answer<T>('GET', path);
  }

  private async answer<T>(method: string, path: string, body?: unknown, init: { rawBody?: AsyncIterable<Uint8Array>; contentType?: string } = {}): Promise<{ body: T; headers: Headers }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.connection.token !== undefined) headers.authorization = `Bearer ${this.connection.token}`;
    const request: RequestInit & { duplex?: 'half' } = { method, headers };
    if (init.rawBody !== undefined) {
      headers['content-type'] = init.contentType ?? 'application/octet-stream';
      request.body = init.rawBody as unknown as BodyInit;
      request.duplex = 'half';
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      request.body = JSON.stringify(body);
    }
    let res: Response;
    try {
      res = await fetch(`${this.connection.url}/admin/v1${path}`, request);
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw describeNetworkError(err, this.connection.url);
    }
    const text = await res.text();
    let json: any;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    if (res.status === 401) {
      throw new CliError(
        this.connection.token === undefined
          ? 'no admin token: set SVC_ADMIN_TOKEN or --token (or SVC_DATA_DIR to the server\'s data dir)'
          : 'the admin token was refused: set SVC_ADMIN_TOKEN or --token',
      );
    }
    if (!res.ok) {
      const error = json?.error;
      // The envelope's code is one of the catalogue's: the server builds every refusal from it.
      if (error && typeof error.code === 'string') {
        const reason = typeof error.reason === 'string' ? (error.reason as ErrorReason) : undefined;
        throw new ServerRefusal(res.status, error.code as ErrorCode, reason, String(error.message ?? ''));
      }
      // One line, whatever answered (a proxy's HTML page, say).
      throw new CliError(`unexpected answer from ${this.connection.url}: HTTP ${res.status}${text ? ` ${text.slice(0, 200).replace(/\s+/g, ' ')}` : ''}`);
    }
    if (!text) return { body: undefined as T, headers: res.headers };
    if (json === undefined) throw new CliError(`unexpected answer from ${this.connection.url}: not JSON (is this an svc server?)`);
    return { body: json as T, headers: res.headers };
  }
}

/** A path segment from user input. */
export const seg = (value: string | number): string => encodeURIComponent(String(value));
