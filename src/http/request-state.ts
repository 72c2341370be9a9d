// What a request carries from one step of its handling to the next (its authentication to its route,
// its read to the hook that writes its headers): Fastify request decorators, declared here once and
// installed by buildApp, each null until a step sets it.
import type { FastifyInstance } from 'fastify';
import type { SignedIn } from '../accounts/service.js';
import type { ApiKeyRecord, Site } from '../entities/sites.js';
import type { Reader } from './v1/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session lookup of the request's cookie, started once (`sessionUser`). */
    signedIn: Promise<SignedIn | undefined> | null;
    /** The manage key a request of /app/v1/manage acts with (`actWithKey`). */
    manageKey: ApiKeyRecord | null;
    /** Who reads a statistics route, once authenticated. */
    statsReader: Reader | null;
    /** The site a statistics route names, looked up once. */
    statsSite: Site | null;
    /** What a successful statistics answer's headers say of its figures (Svc-Imported, Svc-Counted-Since), set as it is read. */
    figureHeaders: Record<string, string> | null;
    /** Gives back the reader's long-read slot the request holds, once answered. */
    releaseLongRead: (() => void) | null;
  }
}

export function decorateRequests(app: FastifyInstance): void {
  for (const name of ['signedIn', 'manageKey', 'statsReader', 'statsSite', 'figureHeaders', 'releaseLongRead'] as const) app.decorateRequest(name, null);
}
