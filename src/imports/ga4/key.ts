// A Google service account's JSON key (the file Google Cloud's console downloads), read into what
// the GA4 import signs its token requests with. The key lives in memory for its job only: nothing
// of it is written to the database, the data folder or the log (docs/imports.md).
import { createPrivateKey, type KeyObject } from 'node:crypto';

export interface ServiceAccountKey {
  /** The account's email: the assertion's issuer, and the user the GA4 property must list as a Viewer. */
  clientEmail: string;
  /** Google's id of the key (the assertion's `kid`), when the file has one. */
  keyId: string | null;
  privateKey: KeyObject;
}

/** A key that cannot be used, with the reason (which never quotes the key). */
export class KeyRefused extends Error {}

/** A 2048- or 4096-bit RSA key in PEM is under 4 KB; anything far longer is not a key file's. */
const MAX_PEM_CHARS = 16_384;
const EMAIL = /^[^\s@]{1,64}@[A-Za-z0-9.-]{1,253}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The key of a parsed key file; KeyRefused says what is missing or wrong. */
export function readServiceAccountKey(file: unknown): ServiceAccountKey {
  if (typeof file !== 'object' || file === null || Array.isArray(file)) throw new KeyRefused("it is not the JSON object of a service account's key file");
  const fields = file as Record<string, unknown>;
  if (fields.type !== 'service_account') throw new KeyRefused('its type is not "service_account" (a key of a service account, created as JSON, is one)');
  const email = fields.client_email;
  if (typeof email !== 'string' || !EMAIL.test(email)) throw new KeyRefused('it has no client_email');
  const pem = fields.private_key;
  if (typeof pem !== 'string' || pem.length > MAX_PEM_CHARS || !pem.includes('-----BEGIN PRIVATE KEY-----')) {
    throw new KeyRefused('it has no private_key (a PEM block that begins with -----BEGIN PRIVATE KEY-----)');
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    // OpenSSL's reason names no part of the key, but says nothing a user can act on either.
    throw new KeyRefused('its private_key is not a readable PEM private key');
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new KeyRefused("its private_key is not an RSA key (Google's token endpoint takes RS256 assertions)");
  const keyId = typeof fields.private_key_id === 'string' && KEY_ID.test(fields.private_key_id) ? fields.private_key_id : null;
  return { clientEmail: email, keyId, privateKey };
}
