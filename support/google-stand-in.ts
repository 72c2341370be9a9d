// A local stand-in of the two Google endpoints the GA4 import calls, written from Google's published
// shapes, over HTTPS with the test CA's certificate: the OAuth 2.0 token endpoint (the JWT bearer
// grant of RFC 7523), which checks the assertion as Google does (an RS256 signature by the service
// account's public key, its issuer, scope, audience and lifetime), and the Analytics Data API's
// runReport (v1beta), which serves the reports of the properties it is given from per-day rows,
// ordered by `orderBys` and paged by `limit` and `offset` (`rowCount` the whole report's rows; rows
// and rowCount left out when there are none, as proto3 JSON does), and answers the refusals a test
// queues (429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE, 403 PERMISSION_DENIED). The public internet is
// what the tests may replace: this is Google's part of it.
import { generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testCertificates } from './test-certificates.js';

export const ANALYTICS_READONLY = 'https://www.googleapis.com/auth/analytics.readonly';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A service account's key file as Google Cloud's console downloads it, and the public half the stand-in checks with. */
export function serviceAccountKeyFile(email = 'svc-import@svc-test-project.iam.gserviceaccount.com'): { file: Record<string, string>; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = {
    type: 'service_account',
    project_id: 'svc-test-project',
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
    client_email: email,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
    universe_domain: 'googleapis.com',
  };
  return { file, publicKey };
}

/** One row of a report: its dimensions' values (in the order of the dimensions' names) and its metrics. */
export interface StandInRow {
  values: string[];
  metrics: Record<string, number>;
}

/** A property's data: per day (YYYY-MM-DD), per list of dimensions after `date` (joined by `,`; `` for none), its rows. */
export type PropertyData = Record<string, Record<string, StandInRow[]>>;

/** A refusal queued for the next runReport requests. */
export interface Refusal {
  status: number;
  word: string;
  message: string;
  times: number;
  retryAfterS?: number;
}

export interface GoogleStandIn {
  tokenUrl: string;
  dataUrl: string;
  /** The claims of every assertion the token endpoint took (its signature checked), in order. */
  assertions: Array<Record<string, unknown>>;
  /** Why each refused assertion was refused. */
  refusedAssertions: string[];
  /** The body of every runReport request that reached the data (not refused), with its property. */
  reports: Array<{ property: string; body: any }>;
  /** Answers the next `times` runReport requests with the refusal. */
  refuse(refusal: Refusal): void;
  /** runReport requests answered with a queued refusal. */
  refused: number;
  stop(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
}

const apiError = (res: ServerResponse, status: number, word: string, message: string, headers: Record<string, string> = {}) => send(res, status, { error: { code: status, message, status: word } }, headers);

/** Why Google would refuse the assertion, or null when it holds. */
function assertionProblem(assertion: string, publicKey: KeyObject, email: string, tokenUrl: string, nowS: number, claimsOut: (claims: Record<string, unknown>) => void): string | null {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'Invalid JWT: not three parts';
  const [headerPart, claimsPart, signature] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8'));
  } catch {
    return 'Invalid JWT: not JSON';
  }
  if (header.alg !== 'RS256') return 'Invalid JWT: alg must be RS256';
  if (!verify('sha256', Buffer.from(`${headerPart}.${claimsPart}`), publicKey, Buffer.from(signature, 'base64url'))) return 'Invalid JWT Signature.';
  if (claims.iss !== email) return 'Invalid grant: account not found';
  if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(ANALYTICS_READONLY)) return 'Invalid OAuth scope or ID token audience provided.';
  if (claims.aud !== tokenUrl) return 'Invalid JWT: audience is not the token URL';
  const { iat, exp } = claims as { iat?: unknown; exp?: unknown };
  if (typeof iat !== 'number' || typeof exp !== 'number' || iat > nowS + 60 || exp <= nowS || exp - iat > 3600) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  }
  claimsOut(claims);
  return null;
}

/** The rows of a report request over a property's data: by day, then ordered and paged. */
function answerReport(data: PropertyData, body: any): { status: number; answer: unknown } {
  const dimensions: string[] = (body.dimensions ?? []).map((d: { name: string }) => d.name);
  const metrics: string[] = (body.metrics ?? []).map((m: { name: string }) => m.name);
  const range = body.dateRanges?.[0];
  if (dimensions[0] !== 'date' || !range?.startDate || !range?.endDate) return { status: 400, answer: 'the stand-in serves reports by date, over one date range' };
  const key = dimensions.slice(1).join(',');
  const days = Object.keys(data).filter((day) => day >= range.startDate && day <= range.endDate).sort();
  const rows: Array<{ dimensionValues: Array<{ value: string }>; metricValues: Array<{ value: string }> }> = [];
  for (const day of days) {
    for (const row of data[day]![key] ?? []) {
      const missing = metrics.find((m) => !(m in row.metrics));
      if (missing) return { status: 400, answer: `Field ${missing} is not a valid metric for these dimensions` };
      rows.push({ dimensionValues: [day.replaceAll('-', ''), ...row.values].map((value) => ({ value })), metricValues: metrics.map((m) => ({ value: String(row.metrics[m]) })) });
    }
  }
  const order: string[] = (body.orderBys ?? []).map((o: { dimension?: { dimensionName?: string } }) => o.dimension?.dimensionName);
  const at = order.map((name) => dimensions.indexOf(name));
  rows.sort((a, b) => {
    for (const i of at) {
      const c = a.dimensionValues[i]!.value.localeCompare(b.dimensionValues[i]!.value);
      if (c !== 0) return c;
    }
    return 0;
  });
  const offset = Number(body.offset ?? 0);
  const limit = Number(body.limit ?? 10_000);
  const page = rows.slice(offset, offset + limit);
  const answer: Record<string, unknown> = {
    dimensionHeaders: dimensions.map((name) => ({ name })),
    metricHeaders: metrics.map((name) => ({ name, type: name === 'bounceRate' ? 'TYPE_FLOAT' : name === 'averageSessionDuration' ? 'TYPE_SECONDS' : 'TYPE_INTEGER' })),
    metadata: { currencyCode: 'USD', timeZone: 'Etc/UTC' },
    kind: 'analyticsData#runReport',
  };
  if (page.length > 0) answer.rows = page;
  if (rows.length > 0) answer.rowCount = rows.length;
  return { status: 200, answer };
}

export async function startGoogleStandIn(options: { clientEmail: string; publicKey: KeyObject; properties: Record<string, PropertyData> }): Promise<GoogleStandIn> {
  const server: Server = createServer({ key: testCertificates().key, cert: testCertificates().cert });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tokenUrl = `${origin}/token`;
  const tokens = new Set<string>();
  const queued: Refusal[] = [];
  const standIn: GoogleStandIn = {
    tokenUrl,
    dataUrl: origin,
    assertions: [],
    refusedAssertions: [],
    reports: [],
    refused: 0,
    refuse: (refusal) => void queued.push({ ...refusal }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== JWT_BEARER) return send(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' + form.get('grant_type') });
        const problem = assertionProblem(form.get('assertion') ?? '', options.publicKey, options.clientEmail, tokenUrl, Math.floor(Date.now() / 1000), (claims) => standIn.assertions.push(claims));
        if (problem !== null) {
          standIn.refusedAssertions.push(problem);
          return send(res, 400, { error: 'invalid_grant', error_description: problem });
        }
        const token = `ya29.${randomBytes(24).toString('base64url')}`;
        tokens.add(token);
        return send(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      const report = req.method === 'POST' ? /^\/v1beta\/properties\/(\d+):runReport$/.exec(req.url ?? '') : null;
      if (!report) return apiError(res, 404, 'NOT_FOUND', `no route ${req.method} ${req.url}`);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      if (!bearer || !tokens.has(bearer[1]!)) return apiError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
      const refusal = queued[0];
      if (refusal) {
        if (--refusal.times === 0) queued.shift();
        standIn.refused++;
        return apiError(res, refusal.status, refusal.word, refusal.message, refusal.retryAfterS === undefined ? {} : { 'retry-after': String(refusal.retryAfterS) });
      }
      const property = report[1]!;
      const data = options.properties[property];
      if (!data) {
        return apiError(res, 403, 'PERMISSION_DENIED', 'User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.');
      }
      const parsed = JSON.parse(body);
      standIn.reports.push({ property, body: parsed });
      const { status, answer } = answerReport(data, parsed);
      if (status !== 200) return apiError(res, status, 'INVALID_ARGUMENT', String(answer));
      send(res, 200, answer);
    })().catch((err: unknown) => apiError(res, 500, 'INTERNAL', String(err)));
  });
  return standIn;
}
