// The HTTP server's connections: how long a client may take to send a request, how many connections
// may be open, and a stop that ends every connection within its deadline. A client that sends
// nothing, half its headers, or a body a byte at a time holds a socket and a parser; these limits
// bound how long, and how many.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionLimits } from '../config.js';
import { ApiError } from '../core/errors.js';
import { answerAndClose } from './errors.js';

/** The response a socket is on (its latest request), kept to tell at stop what the socket waits for. */
const CURRENT = Symbol('svc.currentResponse');
/** The body deadline of a request. */
const DEADLINE = Symbol('svc.bodyDeadline');

type TrackedSocket = Socket & { [CURRENT]?: ServerResponse };
type TimedRequest = IncomingMessage & { [DEADLINE]?: NodeJS.Timeout };

/**
 * Node checks header deadlines on an interval (30 s by default); a tenth of the deadline keeps the
 * cut within 10 % of it (at most once a second: the check walks the connections).
 */
function checkingIntervalMs(limits: ConnectionLimits): number {
  return Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 10)));
}

/** Closes a request whose body is late: 408 if nothing was answered yet. */
function cutBody(req: IncomingMessage, res: ServerResponse | undefined): void {
  if (req.complete) return;
  if (res?.headersSent) req.socket.destroy();
  else answerAndClose(req.socket, new ApiError('REQUEST_TIMEOUT', 'the request body did not arrive in time'));
}

export class Connections {
  private readonly server: Server;
  private readonly sockets = new Set<TrackedSocket>();
  private stopping = false;

  /** An HTTP server under `limits`; `onDropped` counts connections closed for being over the cap. */
  constructor(
    private readonly limits: ConnectionLimits,
    onDropped: () => void,
  ) {
    this.server = createServer({ connectionsCheckingInterval: checkingIntervalMs(limits) });
    // Headers (and a new connection's first byte) within headersTimeout: past it, Node answers 408
    // through the clientError handler and closes. Node's whole-request deadline is off: it runs
    // while the server itself is slow to read (an import stored as it streams), so bodies are timed
    // here instead (bodyDeadline, clientPacedBody), and headers plus body bound every request.
    this.server.headersTimeout = limits.headersTimeoutMs;
    this.server.requestTimeout = 0;
    this.server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    // Past the cap, Node closes a new connection as soon as it is accepted ('drop').
    this.server.maxConnections = limits.maxConnections;
    this.server.on('drop', onDropped);
    this.server.on('connection', (socket: TrackedSocket) => {
      if (this.stopping) {
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
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
      (req.socket as TrackedSocket)[CURRENT] = res;
      listener(req, res);
    });
    return this.server;
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
