// visitorId = first 8 bytes of SHA-256(salt ‖ site ‖ 0 ‖ ip ‖ 0 ‖ ua), whatever the lengths: the
// one-call hash over a reused buffer must give exactly what the streamed definition gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { visitorIdFor } from '../../src/ingest/visitor.js';

const definition = (salt: Buffer, site: string, ip: string, ua: string) =>
  createHash('sha256').update(salt).update(site).update('\0').update(ip).update('\0').update(ua).digest().readBigInt64BE(0);

test('visitorIdFor follows the definition for every input size and alphabet', () => {
  const salt = randomBytes(16);
  const uas = ['', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0', 'é'.repeat(2000), '😀'.repeat(1500), 'x'.repeat(4070), 'x'.repeat(4096), 'a'.repeat(10_000)];
  for (const ua of uas) {
    for (const ip of ['1.2.3.4', '2001:db8::1']) assert.equal(visitorIdFor(salt, 'SiteId123456', ip, ua), definition(salt, 'SiteId123456', ip, ua), `ua of ${ua.length} chars`);
  }
  const longSalt = randomBytes(32);
  assert.equal(visitorIdFor(longSalt, 's', '1.2.3.4', 'ua'), definition(longSalt, 's', '1.2.3.4', 'ua'));
});

test('each part of the input changes the id', () => {
  const salt = randomBytes(16);
  const base = visitorIdFor(salt, 'site', '1.2.3.4', 'ua');
  assert.notEqual(visitorIdFor(randomBytes(16), 'site', '1.2.3.4', 'ua'), base);
  assert.notEqual(visitorIdFor(salt, 'site2', '1.2.3.4', 'ua'), base);
  assert.notEqual(visitorIdFor(salt, 'site', '1.2.3.5', 'ua'), base);
  assert.notEqual(visitorIdFor(salt, 'site', '1.2.3.4', 'ub'), base);
  // The separators keep "ab"+"c" apart from "a"+"bc".
  assert.notEqual(visitorIdFor(salt, 'site', '1.2.3.4a', 'b'), visitorIdFor(salt, 'site', '1.2.3.4', 'ab'));
});
