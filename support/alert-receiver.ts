// A real HTTPS webhook receiver on 127.0.0.1 that records every request and answers as the test
// tells it to: a status, a redirect, or never.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { testCertificates } from './test-certificates.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What to answer: a status code, 'hang' to never answer, a redirect, or a status after a delay. */
export type Answer = number | 'hang' | { redirect: string } | { status: number; afterMs: number };

export interface Receiver {
  port: number;
  /** URL of `path` through a name the test resolver maps to 127.0.0.1. */
  url(path?: string): string;
  requests: ReceivedRequest[];
  requestsTo(path: string): ReceivedRequest[];
  /** Answers for a path, used in order; the last one repeats. Default 200. */
  answer(path: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const { key, cert } = testCertificates();
  const requests: ReceivedRequest[] = [];
  const answers = new Map<string, Answer[]>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      const queue = answers.get(path) ?? [];
      const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? 200;
      if (answer === 'hang') return;
      if (typeof answer === 'object' && 'redirect' in answer) {
        res.writeHead(302, { location: answer.redirect }).end();
        return;
      }
      if (typeof answer === 'object') {
        setTimeout(() => res.writeHead(answer.status).end('ok'), answer.afterMs);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/hook') => `https://receiver.test:${port}${path}`,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    answer: (path, ...list) => answers.set(path, list),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
