// The send timeout (SVC_SEND_TIMEOUT_MS) over real sockets: a connection whose client takes none of
// its answer for the timeout is cut, while a client that takes a long answer in bursts, pausing
// less than the timeout between them, keeps its connection however long the answer takes. The
// answer (128 MB) is larger than what the kernel buffers between the two sockets (a few MB), so that
// it waits for the client.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { Connections, type ConnectionCut } from '../../src/http/connections.js';
import { assertClosedWithin } from '../helpers/raw-http.js';

const SEND_TIMEOUT_MS = 1000;
/** The sweep runs every tenth of the send timeout; it may see a stall up to a sweep late, on a shared machine. */
const SLACK_MS = 600;
const CHUNK = Buffer.alloc(64 * 1024, 'a');
const ANSWER_BYTES = 2048 * CHUNK.length;
/** What a burst reads: more than the kernel buffers, so that each burst lets the server write again. */
const BURST_BYTES = 8 * 1024 * 1024;
// Closed once answered: the end of the answer is the end of the connection.
const REQUEST = 'GET /large HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';

const cuts: Array<{ reason: ConnectionCut; at: number }> = [];
let server: Server;
let port: number;

before(async () => {
  const connections = new Connections(loadConfig({ SVC_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS) }).http, {
    exempt: [],
    onDropped: () => undefined,
    onCut: (reason) => cuts.push({ reason, at: Date.now() }),
  });
  // A long answer written as a stream writes it: a chunk at a time, as the socket takes them.
  server = connections.serve((_req, res) => {
    res.writeHead(200, { 'content-length': String(ANSWER_BYTES) });
    Readable.from(Array.from({ length: ANSWER_BYTES / CHUNK.length }, () => CHUNK)).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A connection that asks for the long answer and reads nothing until told. */
function askWithoutReading(): Promise<{ socket: Socket; started: number; closed: Promise<number> }> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.pause();
    socket.on('error', () => undefined); // a cut is a reset
    socket.once('connect', () => {
      const started = Date.now();
      socket.write(REQUEST);
      resolve({ socket, started, closed: new Promise((done) => socket.once('close', () => done(Date.now()))) });
    });
  });
}

test('a client that takes none of its answer is cut after the send timeout', async () => {
  cuts.length = 0;
  const { socket, started } = await askWithoutReading();
  while (cuts.length === 0 && Date.now() - started < SEND_TIMEOUT_MS + 5000) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(cuts.map((cut) => cut.reason), ['send_timeout']);
  assertClosedWithin(cuts[0]!.at - started, SEND_TIMEOUT_MS, SLACK_MS, 'a connection whose answer is not read');
  // Read from now on, it ends: the server has closed it (before the 16 MB could arrive).
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  socket.resume();
  await new Promise((resolve) => socket.once('close', resolve));
  assert.ok(received < ANSWER_BYTES, `the client received ${received} bytes`);
});

test('a client that takes its answer in bursts keeps its connection for three times the send timeout, then gets it whole', async () => {
  cuts.length = 0;
  const { socket, closed } = await askWithoutReading();
  let received = 0;
  let burstUntil = 0;
  let head = '';
  socket.on('data', (chunk: Buffer) => {
    if (received < 1024) head += chunk.subarray(0, 1024).toString('latin1');
    received += chunk.length;
    if (received >= burstUntil) socket.pause();
  });
  // Every 700 ms, a burst of BURST_BYTES, then nothing: each burst empties the kernel's buffers, so
  // that the server's writes go on. (A reader taking a little at a time would not: on loopback's
  // large buffers, the receive window reopens only once half of them is free.)
  const bursts = setInterval(() => {
    burstUntil = received + BURST_BYTES;
    socket.resume();
  }, 700);
  await new Promise((resolve) => setTimeout(resolve, 3 * SEND_TIMEOUT_MS));
  clearInterval(bursts);
  assert.deepEqual(cuts, []);
  assert.ok(received < ANSWER_BYTES / 2, `the client had only part of the answer (${received} bytes)`);
  burstUntil = Infinity;
  socket.resume();
  await closed;
  assert.match(head, /^HTTP\/1\.1 200 /);
  assert.equal(received - (head.indexOf('\r\n\r\n') + 4), ANSWER_BYTES, 'the whole answer arrived');
  assert.deepEqual(cuts, []);
});
