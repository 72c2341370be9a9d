// TOTP (RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1, 6 digits, 30-second steps, as every authenticator
// app computes them by default. A code is accepted for the current step and one step either way: a
// phone whose clock is less than 30 s off, or a code typed as its step ends, still signs in. A clock
// 60 s off is two steps off: its codes are refused (the phone's time must be set automatically).
import { createHmac, randomBytes } from 'node:crypto';
import { encodeQR } from 'qr';
import { tokensEqual } from '../core/secrets.js';

export const TOTP = { digits: 6, stepSeconds: 30, tolerance: 1, secretBytes: 20 } as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (letters in any case, spaces and padding ignored); throws on another character. */
export function base32Decode(text: string): Buffer {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.toUpperCase().replace(/[\s=]/g, '')) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
      value &= (1 << bits) - 1;
    }
  }
  return Buffer.from(out);
}

/** A new random secret of 160 bits (RFC 4226's recommended length), as base32. */
export const newTotpSecret = () => base32Encode(randomBytes(TOTP.secretBytes));

/** The 30-second step of a time (milliseconds since the epoch). */
export const totpStep = (now: number) => Math.floor(now / 1000 / TOTP.stepSeconds);

/** RFC 4226's HOTP value of a counter, as a string of 6 digits. */
export function hotp(secret: string, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP.digits).padStart(TOTP.digits, '0');
}

export const totpCode = (secret: string, now: number) => hotp(secret, totpStep(now));

export const looksLikeTotpCode = (code: string) => /^\d{6}$/.test(code);

/**
 * The step whose code `code` is, among the current step and one either way, or undefined; the
 * caller compares it with the last step used (a step used never signs in again). Every candidate is
 * compared, in constant time, so the time taken tells nothing of which matched.
 */
export function matchingStep(secret: string, code: string, now: number): number | undefined {
  const current = totpStep(now);
  let matched: number | undefined;
  for (let step = current - TOTP.tolerance; step <= current + TOTP.tolerance; step++) {
    if (tokensEqual(code, hotp(secret, step)) && matched === undefined) matched = step;
  }
  return matched;
}

/** The otpauth:// URI that authenticator apps read from the QR code (Key Uri Format). */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(TOTP.digits), period: String(TOTP.stepSeconds) });
  return `otpauth://totp/${label}?${params}`;
}

/** The QR code of a text as an SVG document, drawn here (never by a remote service). */
export const qrSvg = (text: string) => encodeQR(text, 'svg', { ecc: 'medium', border: 4 });
