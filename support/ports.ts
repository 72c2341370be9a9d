import { connect, createServer } from 'node:net';

/** A TCP port free on loopback right now (for child processes that must be told their port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once something accepts connections on 127.0.0.1:`port`. */
export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
        .once('connect', () => {
          socket.destroy();
          resolve(true);
        })
        .once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
