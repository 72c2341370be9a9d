// POST /sites/:siteId/imports/ga4 (docs/admin-api.md, "Imports from other tools"): a GA4 import of
// the property a service account's key can read. The key is read into memory for the job and never
// stored or logged (docs/imports.md); a refusal names what is wrong without quoting the key.
import type { FastifyInstance } from 'fastify';
import type { OrgAccess } from '../auth/authorization.js';
import type { AppContext } from '../../context.js';
import { apiError } from '../../core/errors.js';
import { addDays, localDay } from '../../core/localtime.js';
import { isValidDay } from '../../core/period.js';
import { GA4_FIRST_DAY, GA4_PROPERTY, type Ga4Request } from '../../imports/ga4/import.js';
import { KeyRefused, readServiceAccountKey } from '../../imports/ga4/key.js';
import { IMPORT_DAYS } from '../../imports/plausible.js';
import { GA4_IMPORT } from '../bodies.js';
import { readBody } from '../validate.js';
import { siteFor } from './org-routes.js';

/** The service account's key: the key file's JSON object, or its text. */
function keyOf(given: unknown): Ga4Request['key'] {
  if (given === undefined) throw apiError('INVALID_IMPORT', 'googleKey', { reason: 'none was given' });
  let file = given;
  if (typeof given === 'string') {
    try {
      file = JSON.parse(given);
    } catch {
      // JSON.parse's message quotes the text it read: the key's.
      throw apiError('INVALID_IMPORT', 'googleKey', { reason: 'it is not JSON (give the key file Google Cloud downloads, as it is)' });
    }
  }
  try {
    return readServiceAccountKey(file);
  } catch (err) {
    if (err instanceof KeyRefused) throw apiError('INVALID_IMPORT', 'googleKey', { reason: err.message });
    throw err;
  }
}

/** The request of a GA4 import: its property, key and days (to: yesterday in the site's zone, the last whole day). */
export function ga4Request(body: unknown, today: string): Ga4Request {
  const fields = readBody(GA4_IMPORT, body);
  const property = typeof fields.property === 'number' ? String(fields.property) : fields.property;
  if (typeof property !== 'string' || !GA4_PROPERTY.test(property)) throw apiError('INVALID_IMPORT', 'googleProperty');
  const day = (name: 'from' | 'to') => {
    const value = fields[name];
    if (value === undefined) return null;
    if (typeof value !== 'string' || !isValidDay(value) || value < GA4_FIRST_DAY || value > IMPORT_DAYS.to) {
      throw apiError('INVALID_PARAMS', 'day', { name, first: GA4_FIRST_DAY, last: IMPORT_DAYS.to });
    }
    return value;
  };
  const from = day('from');
  const to = day('to') ?? addDays(today, -1);
  if (from !== null && from > to) throw apiError('INVALID_PERIOD', 'reversed');
  return { property, key: keyOf(fields.key), from, to };
}

export function ga4ImportRoute(app: FastifyInstance, ctx: AppContext, access: OrgAccess): void {
  app.post<{ Params: { siteId: string } }>('/sites/:siteId/imports/ga4', async (request, reply) => {
    const site = await siteFor(ctx, access, request, request.params.siteId);
    const created = await ctx.imports.importGa4(site, ga4Request(request.body, localDay(ctx.clock.now(), site.timezone)));
    reply.code(202).send(created);
  });
}
