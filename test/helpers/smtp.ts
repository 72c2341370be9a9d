// A real SMTP listener for tests of the mail the service sends (alerts, invitations): it takes every
// message and keeps its recipients and data.
import { createServer, type Server, type Socket } from 'node:net';

export interface Mail {
  to: string[];
  data: string;
}

export interface SmtpListener {
  port: number;
  /** `smtp://127.0.0.1:<port>`, for SVC_SMTP_URL. */
  url: string;
  mails: Mail[];
  close(): Promise<void>;
}

/** Just enough SMTP for nodemailer: plain text, no STARTTLS, no auth. */
export async function startSmtp(): Promise<SmtpListener> {
  const mails: Mail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let to: string[] = [];
    let data: string | undefined;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          if (line === '.') {
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
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
