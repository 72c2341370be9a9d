// A throwaway certificate authority and a server certificate for 127.0.0.1 and receiver.test,
// made with the openssl command line once per test process.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  caFile: string;
  ca: string;
  key: string;
  cert: string;
}

let made: TestCertificates | undefined;

export function testCertificates(): TestCertificates {
  if (made) return made;
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-ca-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=svc test CA', '-keyout', file('ca.key'), '-out', file('ca.pem'));
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=receiver.test', '-keyout', file('server.key'), '-out', file('server.csr'));
  writeFileSync(file('server.ext'), 'subjectAltName=DNS:receiver.test,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', file('server.ext'), '-out', file('server.pem'));
  made = {
    dir,
    caFile: file('ca.pem'),
    ca: readFileSync(file('ca.pem'), 'utf8'),
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.pem'), 'utf8'),
  };
  return made;
}
