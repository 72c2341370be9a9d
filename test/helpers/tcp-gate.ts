// A TCP forwarder on loopback that a test can shut: closed, it refuses new connections and resets
// the open ones, which is what the clients of a stopped server see; opened again, it forwards
// on the same port.
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

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
  // The first listen takes a port of the system's choosing (a port found free first could be taken
  // before it binds); opening again takes the same.
  let port = 0;
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
    port = (server.address() as AddressInfo).port;
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
