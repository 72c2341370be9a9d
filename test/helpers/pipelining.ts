// Clients that pipeline requests and never read the answers (docs/security.md, "Connections"): each
// connection writes its requests at once, 1 600 `GET /openapi.json` in 62 KB, and reads nothing.
// Meanwhile another client asks /healthz and the server's heap is read, every 100 ms.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { sumOfSamples } from './metrics.js';
import { ADMIN_TOKEN } from './server.js';

/** Another loopback address: another client, not counted against the attacker's per-address cap. */
export const OTHER_CLIENT = '127.0.0.2';

/** GET `url` from `localAddress` on a connection of its own; resolves with the status, the body and how long it took. */
export function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { localAddress, agent: false, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, ms: performance.now() - started }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The sum of the samples of `baseUrl`/metrics whose line matches `line` (0 when none does), asked from OTHER_CLIENT. */
export async function metricFrom(baseUrl: string, line: RegExp): Promise<number> {
  const { status, body } = await getFrom(OTHER_CLIENT, `${baseUrl}/metrics`, { authorization: `Bearer ${ADMIN_TOKEN}` });
  if (status !== 200) throw new Error(`/metrics answered ${status}`);
  return sumOfSamples(body, line);
}

export const HEAP_USED = /^svc_process_memory_bytes\{kind="heap_used"\}/;

/** A connection to 127.0.0.1:`port` on which `count` pipelined `GET path` are written at once, and nothing is ever read. */
export function pipelineUnread(port: number, path: string, count: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.pause();
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      // The server cuts the connection: a reset, seen once the client reads.
      socket.on('error', () => undefined);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(count), () => resolve(socket));
    });
  });
}

/** Resolves with whether `socket`, read from now on, is closed within `ms` (the server cut it). */
export function closesWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.resume();
  });
}

export interface PipelineAttack {
  /** The pipelining connections, never read from. */
  sockets: Socket[];
  /** The most the heap was seen above what it was before the attack (bytes). */
  heapGrowth: number;
  /** The slowest /healthz answer to the other client (ms). */
  slowestHealth: number;
}

export interface PipelineAttackOptions {
  /** Where the attacker connects (the service, or the proxy in front of it). */
  port: number;
  connections: number;
  /** Requests pipelined on each connection. */
  requests: number;
  path: string;
  /** How long the heap and /healthz are watched once every connection has written its requests. */
  watchMs: number;
  /** The used heap of the process under attack. */
  heapUsed: () => Promise<number>;
  /** The /healthz the other client asks. */
  healthUrl: string;
}

/** Runs the attack and watches the heap and /healthz meanwhile. */
export async function pipelineAttack(options: PipelineAttackOptions): Promise<PipelineAttack> {
  const before = await options.heapUsed();
  let heapGrowth = 0;
  let slowestHealth = 0;
  const sockets = await Promise.all(Array.from({ length: options.connections }, () => pipelineUnread(options.port, options.path, options.requests)));
  const until = performance.now() + options.watchMs;
  while (performance.now() < until) {
    const health = await getFrom(OTHER_CLIENT, options.healthUrl);
    if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
    slowestHealth = Math.max(slowestHealth, health.ms);
    heapGrowth = Math.max(heapGrowth, (await options.heapUsed()) - before);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { sockets, heapGrowth, slowestHealth };
}
