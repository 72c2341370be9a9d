// The HTTP server's connections: how long a client may take to send a request and to take its
// answer, how many requests it may send ahead of their answers, how many connections may be open (in
// all and per client), and a stop that ends every connection within its deadline. A client that
// sends nothing, half its headers, or a body a byte at a time holds a socket and a parser; one that
// pipelines requests and never reads makes the server hold their answers; these limits bound how
// long, and how many.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionLimits } from '../config.js';
import { apiError } from '../core/errors.js';
import { clientGroup, normalizeIp } from '../ingest/ip.js';
import { answerAndClose } from './errors.js';

/**
 * The response a socket is on (its latest request), kept to tell what the socket waits for: at
 * stop, and in the sweep.
 */
const CURRENT = Symbol('svc.currentResponse');
/** When the socket was accepted (performance.now()). */
const ACCEPTED = Symbol('svc.acceptedAt');
/** The client the socket counts against (clientGroup), unless its peer is exempt. */
const CLIENT = Symbol('svc.client');
/** When the sweep first saw a response finished (performance.now()): the connection idles since. */
const IDLE_SINCE = Symbol('svc.idleSince');
/** The body deadline of a request. */
const DEADLINE = Symbol('svc.bodyDeadline');
/** How many answers wait behind the one the socket is sending (pipelined requests). */
const QUEUED = Symbol('svc.queuedAnswers');
/** The bytes of its answers the client had taken when the sweep last saw that number change. */
const TAKEN = Symbol('svc.takenBytes');
/** When the sweep last saw TAKEN change (performance.now()). */
const TAKEN_AT = Symbol('svc.takenAt');

type AnsweredResponse = ServerResponse & { [IDLE_SINCE]?: number };
type TrackedSocket = Socket & {
  /** Node's HTTP parser of the connection (undocumented): `onIncoming` hands it each request parsed. */
  parser?: { onIncoming: unknown } | null;
  [CURRENT]?: AnsweredResponse;
  [ACCEPTED]: number;
  [CLIENT]?: string;
  [QUEUED]: number;
  [TAKEN]: number;
  [TAKEN_AT]: number;
};
type TimedRequest = IncomingMessage & { [DEADLINE]?: NodeJS.Timeout };

/** Node closes an idle kept-alive connection this long after its announced timeout. */
const KEEP_ALIVE_MARGIN_MS = 1000;

/**
 * Requests one connection may have waiting for their answers behind the answer being sent. Node
 * parses every request a read holds (64 KB: some 1 600 small GETs) before it answers any, and keeps
 * each answer in memory until those before it are sent: a client that pipelines thousands and reads
 * nothing would make the server hold thousands of answers. Past this many, the connection is cut.
 * Browsers do not pipeline, and the clients that do send a few requests ahead.
 */
export const MAX_QUEUED_ANSWERS = 16;

/** Which cap closed a connection on accept. */
export type ConnectionCap = 'total' | 'address';

/** Why an open connection was cut: too many requests ahead of their answers, or an answer its client does not take. */
export type ConnectionCut = 'pipelined' | 'send_timeout';

export interface ConnectionOptions {
  /** Peers never capped per address: reverse proxies, through which every visitor comes (SVC_TRUSTED_PROXIES). */
  exempt: readonly string[];
  /** Counts a connection closed on accept for being over a cap. */
  onDropped: (cap: ConnectionCap) => void;
  /** Counts an open connection cut for what its client does with its answers. */
  onCut: (reason: ConnectionCut) => void;
}

/**
 * Node checks header deadlines on an interval (30 s by default), and the sweep (Connections) on
 * the same one; a tenth of the shorter of the header and send deadlines keeps either cut within 10 %
 * of it (at most once a second: each check walks the connections).
 */
function checkingIntervalMs(limits: ConnectionLimits): number {
  return Math.max(10, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.sendTimeoutMs) / 10)));
}

/** An answer that was queued is now the one its socket sends ('socket' event of the response). */
function leftQueue(socket: TrackedSocket): void {
  socket[QUEUED]--;
}

/**
 * What the parser of a connection cut for pipelining hands the requests it still parses: nothing
 * (0: their bodies, if any, are parsed as usual).
 */
function dropRequest(): number {
  return 0;
}

/**
 * Cuts a connection whose client pipelines past MAX_QUEUED_ANSWERS. Node goes on parsing the rest
 * of the read it was cut in (64 KB: some 1 600 small requests), and its server would make a request
 * and a response of each, keep them until the connection has closed and then abort each with an
 * error: about 1.7 KB of heap and 12 µs apiece, some 130 MB and 4 s of the event loop for the
 * per-address cap's 128 connections at once. Replacing the parser's hand-off to the server
 * (`onIncoming`, set anew for every connection) drops them as they are parsed instead.
 */
function cutPipelining(socket: TrackedSocket): void {
  if (socket.parser) socket.parser.onIncoming = dropRequest;
  socket.destroy();
}

/** Closes a request whose body is late: 408 if nothing was answered yet. */
function cutBody(req: IncomingMessage, res: ServerResponse | undefined): void {
  if (req.complete) return;
  if (res?.headersSent) req.socket.destroy();
  else answerAndClose(req.socket, apiError('REQUEST_TIMEOUT', 'body'), req.url);
}

export class Connections {
  private readonly server: Server;
  private readonly sockets = new Set<TrackedSocket>();
  /** Open connections per client (clientGroup); exempt peers are not counted. */
  private readonly perClient = new Map<string, number>();
  private readonly exempt: ReadonlySet<string>;
  private sweeper: NodeJS.Timeout | undefined;
  private stopping = false;
  private readonly onCut: ConnectionOptions['onCut'];

  /** An HTTP server under `limits`. */
  constructor(
    private readonly limits: ConnectionLimits,
    options: ConnectionOptions,
  ) {
    this.onCut = options.onCut;
    this.exempt = new Set(options.exempt.map((ip) => normalizeIp(ip) ?? ip));
    const checkingInterval = checkingIntervalMs(limits);
    this.server = createServer({ connectionsCheckingInterval: checkingInterval });
    // Headers (and a new connection's first byte) within headersTimeout: past it, Node answers 408
    // through the clientError handler and closes. Node's whole-request deadline is off: it runs
    // while the server itself is slow to read (an import stored as it streams), so bodies are timed
    // here instead (bodyDeadline, clientPacedBody), and headers plus body bound every request.
    this.server.headersTimeout = limits.headersTimeoutMs;
    this.server.requestTimeout = 0;
    this.server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    // Past the cap, Node closes a new connection as soon as it is accepted ('drop').
    this.server.maxConnections = limits.maxConnections;
    this.server.on('drop', () => options.onDropped('total'));
    // Before Node's own listener, so that a connection over its client's cap is closed before it is read from.
    this.server.prependListener('connection', (socket: TrackedSocket) => {
      if (this.stopping || !this.admit(socket)) {
        if (!this.stopping) options.onDropped('address');
        socket.destroy();
        return;
      }
      socket[ACCEPTED] = performance.now();
      socket[QUEUED] = 0;
      socket[TAKEN] = -1;
      socket[TAKEN_AT] = 0;
      this.sockets.add(socket);
      socket.once('close', () => this.release(socket));
    });
    this.server.on('listening', () => {
      clearInterval(this.sweeper);
      this.sweeper = setInterval(() => this.sweep(), checkingInterval).unref();
    });
    this.server.on('close', () => clearInterval(this.sweeper));
  }

  /** Counts `socket` against its client's cap; false when the client already holds as many. */
  private admit(socket: TrackedSocket): boolean {
    const ip = normalizeIp(socket.remoteAddress);
    // A socket reset before it was accepted has no address left, and closes at once.
    if (ip === null) return false;
    if (this.exempt.has(ip)) return true;
    const client = clientGroup(ip);
    const open = this.perClient.get(client) ?? 0;
    if (open >= this.limits.maxConnectionsPerAddress) return false;
    this.perClient.set(client, open + 1);
    socket[CLIENT] = client;
    return true;
  }

  private release(socket: TrackedSocket): void {
    this.sockets.delete(socket);
    const client = socket[CLIENT];
    if (client === undefined) return;
    const open = this.perClient.get(client)! - 1;
    if (open === 0) this.perClient.delete(client);
    else this.perClient.set(client, open);
  }

  /**
   * Bounds every open connection from what it has been seen doing, whatever else is open and
   * whatever Node's own header check holds (a list of parsers ordered by their message's start,
   * which restarts the deadline at a new connection's first byte):
   * - no request yet: answered 408 and closed once the header timeout has passed since it was
   *   accepted, so a client cannot double it by sending its first byte late;
   * - its last response sent (idle, or its next request's headers arriving): closed once the
   *   keep-alive timeout (as Node applies it) and the header timeout have passed, the most Node
   *   itself allows;
   * - an answer waiting in the socket for its client to read it: cut once the client has taken
   *   none of it for the send timeout (sendStalled);
   * - a request being handled is the server's work; its body has deadlines of its own (bodyDeadline).
   * It walks the connections once per checking interval and allocates nothing per request.
   */
  private sweep(): void {
    const now = performance.now();
    const { headersTimeoutMs, keepAliveTimeoutMs } = this.limits;
    for (const socket of this.sockets) {
      const res = socket[CURRENT];
      if (socket.writableLength > 0) {
        if (this.sendStalled(socket, now)) {
          socket.destroy();
          this.onCut('send_timeout');
        }
      } else if (res === undefined) {
        if (now - socket[ACCEPTED] > headersTimeoutMs) answerAndClose(socket, apiError('REQUEST_TIMEOUT', 'request'));
      } else if (res.writableFinished) {
        res[IDLE_SINCE] ??= now;
        if (now - res[IDLE_SINCE] > keepAliveTimeoutMs + KEEP_ALIVE_MARGIN_MS + headersTimeoutMs) socket.destroy();
      }
    }
  }

  /**
   * Whether the client of `socket`, which has bytes waiting to be sent, has taken none of them for
   * the send timeout. What it has taken (the socket's completed writes: what the kernel accepted
   * once the client made room) is compared from sweep to sweep, so a slow reader that takes each
   * write within the timeout is never cut.
   */
  private sendStalled(socket: TrackedSocket, now: number): boolean {
    const taken = socket.bytesWritten - socket.writableLength;
    if (taken !== socket[TAKEN]) {
      socket[TAKEN] = taken;
      socket[TAKEN_AT] = now;
      return false;
    }
    return now - socket[TAKEN_AT] > this.limits.sendTimeoutMs;
  }

  get listening(): boolean {
    return this.server.listening;
  }

  /**
   * The server, answering with `listener`, which calls `bodyDeadline` for the requests whose body
   * it does not time itself.
   */
  serve(listener: RequestListener): Server {
    this.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      // Node gives a pipelined request's response its socket once the answers before it are sent.
      if (res.socket === null && !this.queue(req.socket as TrackedSocket, res)) return;
      this.answering(res);
      listener(req, res);
    });
    return this.server;
  }

  /**
   * Counts `res` among the answers waiting on `socket`; false when the socket is cut: now, for
   * holding MAX_QUEUED_ANSWERS already, or before (the rest of the read it was cut in, which Node
   * still parses, is left unanswered).
   */
  private queue(socket: TrackedSocket, res: ServerResponse): boolean {
    if (socket.destroyed) return false;
    if (socket[QUEUED] >= MAX_QUEUED_ANSWERS) {
      cutPipelining(socket);
      this.onCut('pipelined');
      return false;
    }
    socket[QUEUED]++;
    res.once('socket', leftQueue);
    return true;
  }

  /**
   * Notes that `res` is what its socket waits for now: every request's response, and the answer to
   * a request Node hands over whole (CONNECT).
   */
  answering(res: ServerResponse): void {
    (res.req.socket as TrackedSocket)[CURRENT] = res;
  }

  /**
   * Cuts a request whose body has not arrived within the body timeout (408 if nothing was answered
   * yet). Only requests that announce a body are timed; `clientPacedBody` replaces the deadline.
   */
  bodyDeadline(req: TimedRequest, res: ServerResponse): void {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return;
    const timer = setTimeout(() => cutBody(req, res), this.limits.bodyTimeoutMs);
    req[DEADLINE] = timer;
    const clear = () => clearTimeout(timer);
    req.once('end', clear);
    req.once('close', clear);
  }

  /**
   * For a route that reads a long body as it streams (an import call, once authorized): `body`
   * (the request's payload) as the route reads it, cut once the time the route has spent waiting
   * for the client's bytes adds up to the request timeout. Time the route spends on what it has
   * read does not count, so a body read at the server's pace is never cut for the server's
   * slowness, while a client that trickles its bytes is.
   */
  clientPacedBody(req: TimedRequest, body: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    const res = (req.socket as TrackedSocket)[CURRENT];
    const budgetMs = this.limits.requestTimeoutMs;
    return (async function* () {
      // Until the route reads (a request refused before, say an unknown site), the body deadline runs.
      clearTimeout(req[DEADLINE]);
      let waitedMs = 0;
      let done = false;
      const chunks = body[Symbol.asyncIterator]();
      try {
        while (!done) {
          const asked = performance.now();
          const timer = setTimeout(() => cutBody(req, res), budgetMs - waitedMs);
          let next: IteratorResult<Buffer>;
          try {
            next = await chunks.next();
          } finally {
            clearTimeout(timer);
          }
          waitedMs += performance.now() - asked;
          done = next.done === true;
          if (!done) yield next.value;
        }
      } finally {
        // A reader that stops early lets go of the request as if it had read it directly.
        if (!done) await chunks.return?.();
      }
    })();
  }

  /**
   * Stops: `closeServer` stops listening and resolves once every connection has ended. Connections
   * waiting for their client (nothing sent yet, half a request, a body still arriving, idle between
   * requests) are closed at once: none of them holds an answered event. Requests being handled get
   * `graceMs` to finish, then their connections are closed too.
   */
  async stop(closeServer: () => Promise<void>, graceMs: number): Promise<void> {
    this.stopping = true;
    const closed = closeServer();
    for (const socket of this.sockets) {
      const res = socket[CURRENT];
      const handling = res !== undefined && res.req.complete && !res.writableEnded;
      if (!handling) socket.destroy();
    }
    const cut = setTimeout(() => this.server.closeAllConnections(), graceMs);
    try {
      await closed;
    } finally {
      clearTimeout(cut);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's connections (buildApp): their limits, and the stop that ends them. */
    connections: Connections;
  }
}
