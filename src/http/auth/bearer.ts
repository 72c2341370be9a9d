// The credentials of an `Authorization: Bearer <token>` header, shared by /v1 and /admin/v1. The
// scheme name is case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` are `Bearer`.

const BEARER = /^Bearer +(\S+)$/i;

/** The token of a Bearer Authorization header; undefined when absent, repeated or of another scheme. */
export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  return typeof authorization === 'string' ? BEARER.exec(authorization.trim())?.[1] : undefined;
}
