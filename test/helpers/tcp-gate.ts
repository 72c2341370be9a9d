// A TCP forwarder on loopback that a test can shut: closed, it refuses new connections and resets
// the open ones, which is what the clients of a stopped server see; opened again, it forwards
// on the same port.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from '../../support/ports.js';

export interface TcpGate {
  port: number;
  /** Refuses connections from now on and resets every open one. */
  shut(): Promise<void>;
  /** Forwards again, on the same port. */
  open(): Promise<void>;
  /** Shuts for good. */
  close(): Promise<void>;
}

export async function startTcpGate(targetPort: number): Promise<TcpGate> {
  const port = await freePort();
  const open = new Set<Socket>();
  let server: Server | undefined;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        open.add(socket);
        socket.once('close', () => open.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => server!.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  };
  const shut = async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
    for (const socket of open) socket.resetAndDestroy();
    await closed;
  };
  await listen();
  return {
    port,
    shut,
    async open() {
      if (!server) await listen();
    },
    close: shut,
  };
}
