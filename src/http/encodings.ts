// Content negotiation of precompressed assets (the tracker, the dashboard's files).

/** Encodings the client accepts, ignoring those it refuses with q=0. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  return accepted;
}

/** The best stored coding the client accepts: brotli, then gzip, else none. */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = acceptedEncodings(header);
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined;
}
