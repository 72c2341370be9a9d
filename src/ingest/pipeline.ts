// The collection pipeline: a list of named steps, each of which may drop the event with a typed
// reason. Order of the live steps: parse (JSON, then shape) → site → origin → gpc → relay → bot_ua →
// datacenter → rate_limit (the window's key) → enrich (visitor id; the rate-limit hit and the session
// in one admission: one Redis call) → buffer. Size is checked by the HTTP layer while reading the body.
import { isPromise, type MaybePromise } from '../core/clock.js';
import { clientValue, type DeviceClass } from '../core/vocabulary.js';
import { localDaySpan, type LocalDaySpan } from '../core/localtime.js';
import type { PrometheusRegistry } from '../core/prometheus.js';
import type { StoredEvent } from '../storage/events/schema.js';
import type { Site } from '../entities/sites.js';
import type { LiveSessionStore, SessionAttributes, SessionDecision, SessionVisit } from '../storage/counters/live-sessions.js';
import type { Admission } from '../storage/counters/admission.js';
import { isAccepted, type DropReason, type Outcome } from './drop-reasons.js';
import { parseEventBody, type TrackerEvent } from './event-shape.js';
import type { GeoLocator, GeoPlace } from './geo.js';
import { HostingNetworks, isBotUserAgent } from './bots.js';
import { truncatedIp } from './ip.js';
import { relayedVisitor, type RelayHeaders, type RelayedVisitor, type RelayKeys } from './relay.js';
import { SESSION_GAP_MS } from '../core/session-gap.js';
import type { SiteDirectory } from './sites.js';
import { hostMatchesDomain, originHost, pageHostname, parsePageUrl, referrerValue, utmValues, type PageLocation } from './url-values.js';
import { deviceClass, parseUserAgent } from './user-agent.js';
import { SaltBook, visitorIdFor } from './visitor.js';

/** What the HTTP layer hands the pipeline for one POST /api/e. */
export interface CollectRequest {
  body: Buffer;
  origin?: string;
  userAgent?: string;
  secGpc?: string;
  socketIp?: string;
  relay: RelayHeaders;
}

/** An event on its way through the steps; each step fills in what the next ones need. */
export interface Candidate {
  ts: number;
  ua: string;
  event?: TrackerEvent;
  site?: Site;
  location?: PageLocation;
  /** The host of the page the event was sent from (pageHostname), null when no step knew it. */
  hostname?: string | null;
  ip: string | null;
  relayed: RelayedVisitor | null;
  placeOverride: Partial<GeoPlace> | null;
  /** Browser, OS and device an import line states, each replacing the User-Agent's family where given. */
  agentOverride: AgentOverride | null;
  /** The session an import line names (SessionVisit.session); null for every collected event. */
  sessionName: string | null;
  /** The collection rate limit's key: the site and the visitor's network. */
  rateKey?: string;
  stored?: StoredEvent;
}

/** What an import line states of its visitor's browser, OS and device class (null: the User-Agent's). */
export interface AgentOverride {
  browser: string | null;
  os: string | null;
  device: DeviceClass | null;
}

export type StepResult = DropReason | undefined;

export interface Step<I> {
  name: string;
  run(candidate: Candidate, input: I): MaybePromise<StepResult>;
}

/** The shared parts every path of ingestion enriches with. */
export interface Enrichment {
  geo: GeoLocator;
  hosting: HostingNetworks;
  salts: SaltBook;
}

/** ...and sessionizes with (an import: a session store of its own). */
export interface Enricher extends Enrichment {
  sessions: LiveSessionStore;
}

/**
 * The session of a candidate's visitor (`visit.start` computes a new session's attributes), or null
 * when the event is over its rate limit.
 */
type SessionStep = (c: Candidate, visit: SessionVisit) => MaybePromise<SessionDecision | null>;

// ---- Steps shared by live collection and import ----

export const botUaStep: Step<unknown> = {
  name: 'bot_ua',
  run: (c) => (isBotUserAgent(c.ua) ? 'bot_ua' : undefined),
};

/** Data-centre check: the relay's ASN when it sent one, else the address's. */
export function datacenterStep(hosting: HostingNetworks): Step<unknown> {
  return {
    name: 'datacenter',
    run(c) {
      // A trusted relay that names neither the visitor's IP nor ASN leaves only its own address,
      // often a cloud host: judging that would drop all of its traffic.
      if (c.relayed && c.relayed.ip === null && c.relayed.asn === null) return undefined;
      const asn = c.relayed?.asn ?? (c.ip ? hosting.hostingAsnOf(c.ip) : null);
      return asn !== null && hosting.isHostingAsn(asn) ? 'bot_datacenter' : undefined;
    },
  };
}

const NO_QUERY = new URLSearchParams();

/** Session attributes of a new session, from its first event. */
function firstEventAttributes(c: Candidate, geo: GeoLocator): SessionAttributes {
  const site = c.site!;
  const event = c.event!;
  const location = c.location!;
  const place = c.placeOverride ?? (c.ip ? geo.lookup(c.ip) : {});
  const ua = parseUserAgent(c.ua);
  const agent = c.agentOverride;
  const query = location.search ? new URLSearchParams(location.search) : NO_QUERY;
  const utm = utmValues(query);
  // Every text a client can choose goes through clientValue (country is two letters, device a class).
  return {
    referrer: clientValue(referrerValue(query, event.r, site.domain)),
    utmSource: clientValue(utm.utmSource),
    utmMedium: clientValue(utm.utmMedium),
    utmCampaign: clientValue(utm.utmCampaign),
    country: place.country ?? null,
    region: clientValue(place.region ?? null),
    city: clientValue(place.city ?? null),
    browser: clientValue(agent?.browser ?? ua.browser),
    os: clientValue(agent?.os ?? ua.os),
    device: agent?.device ?? deviceClass(event.w, ua.parserDevice),
  };
}

/** Visitor id, session and dimension values: turns a valid candidate into a stored row (an import's). */
export function enrich(c: Candidate, parts: Enricher): MaybePromise<StoredEvent> {
  return enrichWith(c, parts, (_c, visit) => parts.sessions.touch(visit), (_c, stored) => stored!);
}

/**
 * The same with `session` deciding the visitor's session, and `finish` taking the row (null when
 * `session` refused the event) in the same step: an event waiting on its session waits on one promise.
 */
function enrichWith<R>(c: Candidate, parts: Enrichment, session: SessionStep, finish: (c: Candidate, stored: StoredEvent | null) => R): MaybePromise<R> {
  const span = localDaySpan(c.ts, c.site!.timezone);
  const salt = parts.salts.saltFor(span.day);
  return isPromise(salt) ? salt.then((s) => enrichWithSalt(c, parts, session, finish, span, s)) : enrichWithSalt(c, parts, session, finish, span, salt);
}

function enrichWithSalt<R>(c: Candidate, parts: Enrichment, session: SessionStep, finish: (c: Candidate, stored: StoredEvent | null) => R, span: LocalDaySpan, salt: Buffer): MaybePromise<R> {
  // A session under yesterday's visitor id can only go on within the gap after local midnight.
  const previousSalt = c.ts - span.start < SESSION_GAP_MS ? parts.salts.previousSalt(span.day) : undefined;
  return isPromise(previousSalt)
    ? previousSalt.then((p) => enrichWithSalts(c, parts, session, finish, span, salt, p))
    : enrichWithSalts(c, parts, session, finish, span, salt, previousSalt);
}

function enrichWithSalts<R>(
  c: Candidate,
  parts: Enrichment,
  session: SessionStep,
  finish: (c: Candidate, stored: StoredEvent | null) => R,
  span: LocalDaySpan,
  salt: Buffer,
  previousSalt: Buffer | undefined,
): MaybePromise<R> {
  const site = c.site!;
  const ip = c.ip ?? '';
  const visitorId = visitorIdFor(salt, site.id, ip, c.ua);
  // The event's one visit object: the stores and the admission pass it along as is.
  const visit: SessionVisit = {
    visitorId,
    previousVisitorId: previousSalt ? visitorIdFor(previousSalt, site.id, ip, c.ua) : undefined,
    ts: c.ts,
    page: c.location!.path,
    isPageview: c.event!.name === 'pageview',
    session: c.sessionName,
    start: () => firstEventAttributes(c, parts.geo),
  };
  const decision = session(c, visit);
  if (isPromise(decision)) return decision.then((d) => finish(c, storedRow(c, span.day, visitorId, d)));
  return finish(c, storedRow(c, span.day, visitorId, decision));
}

function storedRow(c: Candidate, day: string, visitorId: bigint, decision: SessionDecision | null): StoredEvent | null {
  if (decision === null) return null;
  const { session, started } = decision;
  const site = c.site!;
  const event = c.event!;
  const location = c.location!;
  const engage = event.name === 'engage' ? event.props : null;
  const attrs = session.attrs;
  // Spelled out rather than spread: every row gets the same shape, which the chunk writer reads fast.
  return {
    siteId: site.id,
    ts: c.ts,
    day,
    visitorId,
    sessionId: session.sessionId,
    sessionStart: started,
    name: event.name,
    page: location.path,
    hostname: c.hostname ?? null,
    entryPage: session.entryPage,
    referrer: attrs.referrer,
    utmSource: attrs.utmSource,
    utmMedium: attrs.utmMedium,
    utmCampaign: attrs.utmCampaign,
    country: attrs.country,
    region: attrs.region,
    city: attrs.city,
    browser: attrs.browser,
    os: attrs.os,
    device: attrs.device,
    screenWidth: event.w,
    language: event.l ? event.l.slice(0, 35) : null,
    props: event.props ? JSON.stringify(event.props) : null,
    engagedMs: engage ? Math.round(engage.t as number) : null,
    scrollDepth: engage ? Math.round(engage.d as number) : null,
    revenueMinor: event.revenue ? event.revenue.minor : null,
    revenueCurrency: event.revenue ? event.revenue.currency : null,
    lcp: event.vitals?.lcp ?? null,
    inp: event.vitals?.inp ?? null,
    cls: event.vitals?.cls ?? null,
    ttfb: event.vitals?.ttfb ?? null,
  };
}

/**
 * `u` must parse; for live traffic an absolute `u` must also be on the site (part of the origin
 * check, which imports skip: docs/admin-api.md). Its path and query are kept, and its host as the
 * event's hostname (else the Origin's, which the origin step set).
 */
export function locate(c: Candidate, checkHost: boolean): StepResult {
  const location = parsePageUrl(c.event!.u);
  if (!location) return 'bad_shape';
  if (checkHost && location.host !== null && !hostMatchesDomain(location.host, c.site!.domain)) return 'origin_mismatch';
  c.location = location;
  c.hostname = pageHostname(location.host ?? c.hostname ?? null);
  return undefined;
}

// ---- Live collection ----

export interface LiveDeps extends Enrichment {
  sites: SiteDirectory;
  relayKeys: RelayKeys;
  /** The collection rate limit's hit and the visitor's session, decided together. */
  admission: Admission;
  accept(event: StoredEvent): void;
}

export function liveSteps(deps: LiveDeps): Array<Step<CollectRequest>> {
  const admit: SessionStep = (c, visit) => deps.admission.admit(c.rateKey!, visit);
  const admitted = (c: Candidate, stored: StoredEvent | null): StepResult => {
    if (stored === null) return 'rate_limited';
    c.stored = stored;
    return undefined;
  };
  return [
    {
      name: 'parse',
      run(c, req) {
        const result = parseEventBody(req.body);
        if (!result.ok) return result.reason;
        c.event = result.event;
        return undefined;
      },
    },
    {
      name: 'site',
      run(c) {
        const found = deps.sites.get(c.event!.s, c.ts);
        const check = (site: Site | undefined): StepResult => {
          if (!site || site.status !== 'active') return 'unknown_site';
          c.site = site;
          return undefined;
        };
        return isPromise(found) ? found.then(check) : check(found);
      },
    },
    {
      name: 'origin',
      run(c, req) {
        const host = originHost(req.origin);
        if (host === null || !hostMatchesDomain(host, c.site!.domain)) return 'origin_mismatch';
        c.hostname = host;
        return locate(c, true);
      },
    },
    {
      name: 'gpc',
      run(c, req) {
        return req.secGpc?.trim() === '1' && c.site!.honorGpc ? 'gpc' : undefined;
      },
    },
    {
      name: 'relay',
      run(c, req) {
        if (req.relay.relayKey === undefined) return undefined;
        const trust = (valid: boolean): StepResult => {
          if (!valid) return undefined;
          const relayed = relayedVisitor(req.relay);
          c.relayed = relayed;
          if (relayed.ip) c.ip = relayed.ip;
          if (relayed.country || relayed.region || relayed.city) {
            c.placeOverride = { country: relayed.country, region: relayed.region, city: relayed.city };
          }
          return undefined;
        };
        const valid = deps.relayKeys.isValid(req.relay.relayKey);
        return isPromise(valid) ? valid.then(trust) : trust(valid);
      },
    },
    botUaStep,
    datacenterStep(deps.hosting),
    {
      // The hit itself is counted in enrich, with the session: one call to the counters an event.
      name: 'rate_limit',
      run(c) {
        c.rateKey = `${c.site!.id}|${c.ip ? truncatedIp(c.ip) : '-'}`;
        return undefined;
      },
    },
    {
      name: 'enrich',
      run(c) {
        return enrichWith(c, deps, admit, admitted);
      },
    },
    {
      name: 'buffer',
      run(c) {
        deps.accept(c.stored!);
        return undefined;
      },
    },
  ];
}

// Real User-Agents are a few hundred characters; the cap bounds every cache keyed by them.
const MAX_USER_AGENT = 512;

export function newCandidate(ts: number, ua: string | undefined, ip: string | null): Candidate {
  return { ts, ua: ua ? ua.slice(0, MAX_USER_AGENT) : '', ip, relayed: null, placeOverride: null, agentOverride: null, sessionName: null };
}

/**
 * Runs a candidate through the steps; the first reason stops it. Synchronous as long as every step
 * answers synchronously (the common case: cache hits), asynchronous from the first step that waits.
 */
export function runSteps<I>(steps: ReadonlyArray<Step<I>>, candidate: Candidate, input: I, from = 0): MaybePromise<DropReason | 'accepted'> {
  for (let i = from; i < steps.length; i++) {
    const reason = steps[i]!.run(candidate, input);
    if (isPromise(reason)) return reason.then((r) => r ?? runSteps(steps, candidate, input, i + 1));
    if (reason) return reason;
  }
  return 'accepted';
}

export class DropCounter {
  private readonly accepted;
  private readonly dropped;
  constructor(metrics: PrometheusRegistry) {
    this.accepted = metrics.counter('svc_events_accepted_total', 'Events accepted by the collection endpoint and import', { labelled: true });
    this.dropped = metrics.counter('svc_events_dropped_total', 'Events discarded, by reason', { labelled: true });
  }
  count(outcome: Outcome, source: 'collect' | 'import', events = 1): void {
    if (isAccepted(outcome)) this.accepted.inc({ source }, events);
    else this.dropped.inc({ reason: outcome, source }, events);
  }
  droppedFor(reason: DropReason, source: 'collect' | 'import' = 'collect'): number {
    return this.dropped.value({ reason, source });
  }
  acceptedFor(source: 'collect' | 'import'): number {
    return this.accepted.value({ source });
  }
}

