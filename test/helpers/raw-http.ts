// HTTP/1.1 requests written byte for byte on a fresh socket: for what fetch refuses to send
// (malformed requests, oversized headers, cut-short or chunked uploads).
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';

export /** An HTTP/1.1 request on a fresh socket; resolves with the status, raw headers, body and whether the server closed. */
function rawRequest(port: number, head: string, body: Buffer | null, chunked = false): Promise<{ status: number; head: string; body: Buffer; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    let parsed: { status: number; head: string; bodyStart: number; length: number } | null = null;
    const timer = setTimeout(() => finish(false), 5000);
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (!parsed) return reject(new Error(`no complete response (${data.length} bytes): ${data.toString('latin1').slice(0, 200)}`));
      resolve({ status: parsed.status, head: parsed.head, body: data.subarray(parsed.bodyStart), closedByServer });
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (!parsed) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headText = data.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headText)?.[1] ?? 0);
        parsed = { status: Number(headText.slice(9, 12)), head: headText, bodyStart: end + 4, length };
      }
      // Keep reading briefly after the response: the connection must be closed for oversized bodies.
      if (parsed && /\r\nconnection: *close/i.test(parsed.head)) return;
      if (parsed && data.length >= parsed.bodyStart + parsed.length) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => {
      // EPIPE/ECONNRESET after the server answered and closed an oversized upload is expected.
      if (parsed) finish(true);
    });
    socket.on('connect', () => {
      socket.write(head, 'latin1');
      if (body) {
        if (chunked) {
          for (let off = 0; off < body.length; off += 8192) {
            const part = body.subarray(off, off + 8192);
            socket.write(part.length.toString(16) + '\r\n');
            socket.write(part);
            socket.write('\r\n');
          }
          socket.write('0\r\n\r\n');
        } else socket.write(body);
      }
    });
  });
}

export interface HeldConnection {
  socket: Socket;
  /** Resolves when the connection closes: after how long (from connect) and what the server sent. */
  closed: Promise<{ afterMs: number; received: string }>;
}

/**
 * A client that holds a connection open: sends `first` once connected, then (with `dripMs`) one
 * byte of body every `dripMs` until the connection closes. Resolves once connected. `from` is the
 * local address the client connects from (another loopback address is another client).
 */
export function holdConnection(port: number, first = '', dripMs?: number, from?: string): Promise<HeldConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let received = '';
    let drip: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a reset is a close too
    socket.once('error', reject);
    socket.once('connect', () => {
      const started = Date.now();
      socket.off('error', reject);
      if (first) socket.write(first, 'latin1');
      if (dripMs) drip = setInterval(() => socket.writable && socket.write('a'), dripMs);
      const closed = new Promise<{ afterMs: number; received: string }>((done) =>
        socket.once('close', () => {
          clearInterval(drip);
          done({ afterMs: Date.now() - started, received });
        }),
      );
      resolve({ socket, closed });
    });
  });
}

/** The service's connection timeouts (milliseconds) as its environment sets them. */
export function timeoutsEnv(ms: { headers: number; body: number; keepAlive: number; request?: number }): Record<string, string> {
  return {
    SVC_HEADERS_TIMEOUT_MS: String(ms.headers),
    SVC_BODY_TIMEOUT_MS: String(ms.body),
    SVC_KEEP_ALIVE_TIMEOUT_MS: String(ms.keepAlive),
    ...(ms.request === undefined ? {} : { SVC_REQUEST_TIMEOUT_MS: String(ms.request) }),
  };
}

/** Asserts that `what` was closed after its limit, and at most `slackMs` later. */
export function assertClosedWithin(afterMs: number, limitMs: number, slackMs: number, what: string): void {
  assert.ok(afterMs >= limitMs - 50, `${what} closed after ${afterMs} ms, before its ${limitMs} ms`);
  assert.ok(afterMs <= limitMs + slackMs, `${what} closed after ${afterMs} ms, limit ${limitMs} ms`);
}
