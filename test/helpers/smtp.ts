// A real SMTP listener for tests of the mail the service sends (alerts, invitations, digests): it
// takes every message and keeps its recipients and data, or misbehaves as a test sets `mode`.
import { createServer, type Server, type Socket } from 'node:net';

export interface Mail {
  to: string[];
  data: string;
}

/**
 * How the listener treats the next connections: `accept` every message; `refuse` each at its end of
 * DATA (550); `hang` (no greeting, ever); `close` the connection in the middle of the message.
 */
export type SmtpMode = 'accept' | 'refuse' | 'hang' | 'close';

export interface SmtpListener {
  port: number;
  mode: SmtpMode;
  /** `smtp://127.0.0.1:<port>`, for SVC_SMTP_URL. */
  url: string;
  mails: Mail[];
  close(): Promise<void>;
}

/** Just enough SMTP for nodemailer: plain text, no STARTTLS, no auth. */
export async function startSmtp(): Promise<SmtpListener> {
  const mails: Mail[] = [];
  const sockets = new Set<Socket>();
  const listener = { mode: 'accept' as SmtpMode };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let to: string[] = [];
    let data: string | undefined;
    let buffer = '';
    const mode = listener.mode;
    if (mode === 'hang') return;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          if (mode === 'close' && data.length > 0) {
            socket.destroy();
            return;
          }
          if (line === '.' && mode === 'refuse') {
            data = undefined;
            to = [];
            socket.write('550 5.7.1 message refused by policy\r\n');
          } else if (line === '.') {
            mails.push({ to, data });
            data = undefined;
            to = [];
            socket.write('250 queued\r\n');
          } else data += line + '\n';
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 test\r\n');
        else if (/^RCPT TO:/i.test(line)) {
          to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1'));
          socket.write('250 ok\r\n');
        } else if (/^DATA/i.test(line)) {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get mode() {
      return listener.mode;
    },
    set mode(next: SmtpMode) {
      listener.mode = next;
    },
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
