/** The token of an `Authorization: Bearer <token>` header, or undefined (scheme case-insensitive). */
export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  if (typeof authorization !== 'string') return undefined;
  return /^Bearer ([^\s]+)$/i.exec(authorization.trim())?.[1];
}
