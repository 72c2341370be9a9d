import { request } from 'node:http';

/**
 * POST `body` to 127.0.0.1:`port``path` from a chosen loopback source address (any of 127.0.0.0/8),
 * as a visitor at that address would; resolves with the status.
 */
export function postFrom(localAddress: string, port: number, path: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method: 'POST', localAddress, agent: false, headers: { 'content-type': 'text/plain', ...headers } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
