// The words of the APIs, declared once for the server, the dashboard (web/) and the CLI: the period
// presets and grains, the dimensions and their scopes, filters, what goals and funnels match, the
// roles of a membership, and the enumerations the APIs answer with (docs/api.md, docs/admin-api.md).
// The rest of the vocabulary declares what it builds from these words: the metrics
// (metric-registry.ts), the read API's answers (answers.ts) and the management and account APIs'
// answers (management.ts).
//
// The dashboard bundles what it imports from here, so this module holds words, data and a few pure
// functions over them: no engine, storage or Node code.

// ---- Periods ---------------------------------------------------------------------------------

/**
 * `12mo` runs from the first day of the month eleven months before today's; `all` from the site's
 * first day with data (collected or imported), today alone when it has none.
 */
export const PRESETS = ['today', 'yesterday', '7d', '30d', '90d', 'month', 'last_month', 'year', '12mo', 'all'] as const;
export type Preset = (typeof PRESETS)[number];
export const DEFAULT_PRESET: Preset = '30d';

export type Grain = 'hour' | 'day' | 'week' | 'month';

/**
 * What a period's figures are compared with: the same number of days just before it (the
 * default), the same days a year earlier, or nothing.
 */
export const COMPARISONS = ['previous', 'year', 'off'] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const DEFAULT_COMPARISON: Comparison = 'previous';

export function isComparison(text: string | null): text is Comparison {
  return (COMPARISONS as readonly string[]).includes(text ?? '');
}

// ---- Dimensions (docs/api.md, Dimensions) ----------------------------------------------------
//
// Event-scoped dimensions (page, hostname, event) describe one event; a filter on them keeps matching events.
// Session-scoped ones describe a whole session (copied onto each of its events at ingest, except
// `exit`, derived at query time); a filter on them keeps every event of matching sessions.

export type DimensionScope = 'event' | 'session';

/** The site dashboard's breakdown panels (PANELS in dashboard-reads.ts), in the order they are shown. */
export type PanelId = 'pages' | 'sources' | 'locations' | 'devices' | 'events';

/** A dimension's tab in its panel of the site dashboard (named by the catalogue, keyed by the dimension). */
export interface DimensionTabSpec {
  readonly panel: PanelId;
  /** The kind of goal whose pattern is one of the tab's keys (an event goal's pattern is an event name). */
  readonly goals?: MatchKind;
  /** Shown only when the view's period has more than one key of the dimension (a site on one host has no use for its hosts). */
  readonly several?: true;
}

interface DimensionSpec {
  readonly scope: DimensionScope;
  /**
   * The column of the events table that holds the dimension's key, when it is not the dimension's
   * own name; session rows keep the session-scoped keys under the same names, so that one filter
   * predicate reads both. A stored row's field (StoredEvent, SessionAttributes) is the column's name
   * in camelCase.
   */
  readonly column?: string;
  /** Session-scoped and valued by the session's pages (its first, its last pageview), not by its first event's attributes. */
  readonly pages?: true;
  /** Held by no event: derived per session at query time. */
  readonly derived?: true;
  readonly tab: DimensionTabSpec;
}

/** Each dimension, once: its scope, columns, stored fields and dashboard tabs derive from it (its names are the catalogue's) (docs/read-path.md, Adding a dimension). */
export const DIMENSION_SPECS = {
  page: { scope: 'event', tab: { panel: 'pages' } },
  entry: { scope: 'session', column: 'entry_page', pages: true, tab: { panel: 'pages' } },
  exit: { scope: 'session', column: 'exit_page', pages: true, derived: true, tab: { panel: 'pages' } },
  referrer: { scope: 'session', tab: { panel: 'sources' } },
  utm_source: { scope: 'session', tab: { panel: 'sources' } },
  utm_medium: { scope: 'session', tab: { panel: 'sources' } },
  utm_campaign: { scope: 'session', tab: { panel: 'sources' } },
  country: { scope: 'session', tab: { panel: 'locations' } },
  region: { scope: 'session', tab: { panel: 'locations' } },
  city: { scope: 'session', tab: { panel: 'locations' } },
  browser: { scope: 'session', tab: { panel: 'devices' } },
  os: { scope: 'session', tab: { panel: 'devices' } },
  device: { scope: 'session', tab: { panel: 'devices' } },
  event: { scope: 'event', column: 'name', tab: { panel: 'events', goals: 'event' } },
  hostname: { scope: 'event', tab: { panel: 'pages', several: true } },
} as const satisfies Record<string, DimensionSpec>;

export type Dimension = keyof typeof DIMENSION_SPECS;

/** The dimensions, in the order the APIs list them (marked pure, so that the dashboard's bundles drop it where unused). */
export const DIMENSIONS = /* @__PURE__ */ Object.keys(DIMENSION_SPECS) as readonly Dimension[];

export function isDimension(text: string): text is Dimension {
  return (DIMENSIONS as readonly string[]).includes(text);
}

type Specs = typeof DIMENSION_SPECS;
// Distributes over a union of dimensions (D extends Dimension), each its own column.
type ColumnOf<D extends Dimension> = D extends Dimension ? (Specs[D] extends { column: infer C extends string } ? C : D) : never;
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The dimensions an event row holds (all but those derived per session). */
export type StoredDimension = { [D in Dimension]: Specs[D] extends { derived: true } ? never : D }[Dimension];
/** The session-scoped dimensions a session's first event sets: a live session's attributes. */
export type AttributeDimension = { [D in Dimension]: Specs[D] extends { scope: 'session'; pages?: never } ? D : never }[Dimension];
/** The field of a stored row (StoredEvent, SessionAttributes) that holds a dimension's key. */
export type StoredField<D extends Dimension> = CamelCase<ColumnOf<D>>;

/** The column of the events table (and of session rows) that holds a dimension's key. */
export function dimensionColumn(d: Dimension): string {
  const spec: DimensionSpec = DIMENSION_SPECS[d];
  return spec.column ?? d;
}

export function storedField<D extends Dimension>(d: D): StoredField<D> {
  return dimensionColumn(d).replace(/_(.)/g, (_, letter: string) => letter.toUpperCase()) as StoredField<D>;
}

/** Whether a dimension is one of a live session's attributes (AttributeDimension). */
export function isAttributeDimension(d: Dimension): d is AttributeDimension {
  const spec: DimensionSpec = DIMENSION_SPECS[d];
  return spec.scope === 'session' && !spec.pages;
}

/** Whether an event row holds a dimension (StoredDimension). */
export function isStoredDimension(d: Dimension): d is StoredDimension {
  const spec: DimensionSpec = DIMENSION_SPECS[d];
  return !spec.derived;
}

/** The values of the `device` dimension (src/ingest/user-agent.ts tells them from the screen width or the User-Agent). */
export const DEVICE_CLASSES = ['desktop', 'mobile', 'tablet'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

export function isDeviceClass(text: unknown): text is DeviceClass {
  return (DEVICE_CLASSES as readonly unknown[]).includes(text);
}

/**
 * A custom property as a dimension: `prop.<key>`, the key as the tracker sends it (1 to 64
 * characters, case-sensitive). Its value on an event is the property's (a number or boolean as its
 * JSON text); `engage` events carry none (their props are the tracker's measurements).
 */
export type PropertyDimension = `prop.${string}`;
/** A dimension a breakdown or a filter names: one of DIMENSIONS, or a custom property. */
export type QueryDimension = Dimension | PropertyDimension;

export const PROPERTY_PREFIX = 'prop.';
/** The length of a property key, as the tracker keeps them (src/ingest/event-shape.ts). */
export const PROPERTY_KEY_LENGTH = { min: 1, max: 64 } as const;

export function isPropertyDimension(text: string): text is PropertyDimension {
  if (!text.startsWith(PROPERTY_PREFIX)) return false;
  const length = text.length - PROPERTY_PREFIX.length;
  return length >= PROPERTY_KEY_LENGTH.min && length <= PROPERTY_KEY_LENGTH.max;
}

export function isQueryDimension(text: string): text is QueryDimension {
  return isDimension(text) || isPropertyDimension(text);
}

/** The property key of a `prop.<key>` dimension. */
export function propertyKey(d: PropertyDimension): string {
  return d.slice(PROPERTY_PREFIX.length);
}

/**
 * The goal filter (`goal:<goalId>`, values several goal ids with `|`): an event matches it when it
 * completes one of the goals (docs/api.md, Goal filters). It filters and is no breakdown's dimension;
 * it takes `is` only, and reads with `raw=clip` only.
 */
export const GOAL_DIMENSION = 'goal';
/** A dimension a filter names: a query dimension, or the goal filter's. */
export type FilterDimension = QueryDimension | typeof GOAL_DIMENSION;

export function isFilterDimension(text: string): text is FilterDimension {
  return text === GOAL_DIMENSION || isQueryDimension(text);
}

/** The goal filter among filters, if any (one per dimension: at most one). */
export function goalFilterOf(filters: readonly Filter[]): Filter | undefined {
  return filters.find((f) => f.dimension === GOAL_DIMENSION);
}

/** Custom properties and goals describe one event, like `page`, `hostname` (the page's host) and `event`. */
export function scopeOf(d: FilterDimension): DimensionScope {
  return d === GOAL_DIMENSION || isPropertyDimension(d) ? 'event' : DIMENSION_SPECS[d].scope;
}

/** The key reported for an absent value, which a filter value `(none)` also matches. */
export const NONE_KEY = '(none)';
/** The key under which rollups fold the long tail beyond the per-day cap. */
export const OTHER_KEY = '(other)';
/**
 * The key every page outside a shared link's page lock reads as (docs/accounts.md, Shared links): an
 * entry or exit page, a filter's value on them, a journey's step. No page is one: pages start with `/`.
 */
export const OTHER_PAGE_KEY = '(other page)';

/**
 * A client's text as stored: one that spells a reserved key keeps its word but trades the
 * parentheses for brackets (`(none)` → `[none]`, `(other)` → `[other]`), so that it is counted as
 * a value of its own, never in the bucket of absent values or of the folded long tail.
 */
export function clientValue(text: string | null): string | null {
  return text === NONE_KEY || text === OTHER_KEY ? `[${text.slice(1, -1)}]` : text;
}

/**
 * How a filter compares a dimension's value, each written as the separator between the dimension and
 * the value of a `filter` parameter: `is` the value (`<dimension>:<value>`), `is_not` (`!:`, every
 * other value, `(none)` included) and `contains` (`~:`, the text anywhere in the value, whatever its
 * case, matched literally).
 */
export const FILTER_OPERATORS = { is: ':', is_not: '!:', contains: '~:' } as const;
export type FilterOperator = keyof typeof FILTER_OPERATORS;

/** The length of a `contains` filter's text. */
export const CONTAINS_TEXT_LENGTH = { min: 1, max: 256 } as const;

/** How many values one filter lists at most (`country:DE|AT`: is one of them). */
export const FILTER_VALUES_MAX = 20;

/**
 * How many filters one request, segment or lock carries at most, and how many values all of them list
 * together: each value becomes a predicate of the statement (a property's a whole decode), so these
 * bound the statement a request can make the engine plan, and the memory a prepared one keeps.
 */
export const FILTERS_MAX = 16;
export const FILTER_VALUES_TOTAL_MAX = 40;

/** One `filter` parameter: `<dimension><separator><value>` (FILTER_OPERATORS). */
export interface Filter {
  readonly dimension: FilterDimension;
  /** The value as the parameter writes it: one value, or several separated by `|` (`\|` a literal `|`, `\\` a `\`). */
  readonly value: string;
  /** The values it lists (`filterValues`): `is` any of them, `is_not` none of them, `contains` any of them. */
  readonly values: readonly string[];
  /** How the value is compared; absent for `is`. */
  readonly operator?: Exclude<FilterOperator, 'is'>;
  /**
   * The value is a page pattern (`*`, `**`; docs/api.md, Goals' syntax), matched as goals match
   * pages: only a shared link's lock on `page` holds one (the read API's own filters are exact).
   */
  readonly pattern?: true;
  /**
   * On a page-valued session dimension (PAGE_VALUED_DIMENSIONS) under a shared link's lock on `page`:
   * that lock. The filter compares the values the lock shows: the pages it admits, any other as
   * OTHER_PAGE_KEY.
   */
  readonly pageLock?: Filter;
  /**
   * A goal filter's goals, as the site defines them: resolved from its values (the goal ids) before
   * the query is planned; absent on any other filter.
   */
  readonly goals?: readonly FilterGoal[];
}

/** The session-scoped dimensions whose values are pages (a session's first and last): a page lock folds those outside it. */
export const PAGE_VALUED_DIMENSIONS: ReadonlySet<FilterDimension> = /* @__PURE__ */ new Set(/* @__PURE__ */ DIMENSIONS.filter((d) => (DIMENSION_SPECS[d] as DimensionSpec).pages));

/**
 * Whether a shared link with these locked filters (`filter` texts) shares the goals read and goal
 * filters: unless it is locked to pages (`page`, `hostname`, entry or exit pages, whatever the
 * operator), as a goal's pattern may name pages outside the lock. Under its other locks the goals
 * count what the lock admits, as every read does.
 */
export function lockSharesGoals(lockedFilters: readonly string[]): boolean {
  return !lockedFilters.some((text) => {
    const dimension = splitFilterParam(text)?.dimension;
    return dimension === 'page' || dimension === 'hostname' || PAGE_VALUED_DIMENSIONS.has(dimension as FilterDimension);
  });
}

/**
 * A `filter` parameter's parts, split at its first `:`: the operator is `is_not` or `contains` when
 * the text before it ends with `!` or `~`. Undefined without a `:`; the dimension is not checked.
 */
export function splitFilterParam(text: string): { dimension: string; operator: FilterOperator; value: string } | undefined {
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  const mark = text[colon - 1];
  const operator: FilterOperator = mark === '!' ? 'is_not' : mark === '~' ? 'contains' : 'is';
  return { dimension: text.slice(0, operator === 'is' ? colon : colon - 1), operator, value: text.slice(colon + 1) };
}

/**
 * The values a filter's value text lists, split at each `|` not written `\|`, with `\\` read as one
 * `\` (a `\` before any other character stays as it is). One pass over the text.
 */
export function filterValues(text: string): string[] {
  const values: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\\' && (next === '|' || next === '\\')) {
      current += next;
      i++;
    } else if (c === '|') {
      values.push(current);
      current = '';
    } else current += c;
  }
  values.push(current);
  return values;
}

/** Values as one filter value text, the inverse of filterValues. */
export const joinFilterValues = (values: readonly string[]): string => values.map((v) => v.replace(/[\\|]/g, (c) => `\\${c}`)).join('|');

/** A filter from its parts, `is` written as no operator (one spelling for each filter). */
export function makeFilter(dimension: FilterDimension, operator: FilterOperator, value: string): Filter {
  const values = filterValues(value);
  return operator === 'is' ? { dimension, value, values } : { dimension, value, values, operator };
}

/** A filter that `is` one value, taken as it is (a `|` in it is no separator). */
export const oneValueFilter = (dimension: QueryDimension, value: string): Filter => makeFilter(dimension, 'is', joinFilterValues([value]));

/** A filter as a `filter` parameter, the inverse of splitFilterParam. */
export const filterParam = (filter: Filter): string => `${filter.dimension}${FILTER_OPERATORS[filter.operator ?? 'is']}${filter.value}`;

/** A breakdown's rows per answer (`limit`): bounds and default. */
export const BREAKDOWN_LIMIT = { min: 1, max: 1000, default: 100 } as const;

/** A journey's paths per row (`steps`) and rows per answer (`limit`): bounds and defaults. */
export const JOURNEY_STEPS = { min: 2, max: 5, default: 3 } as const;
export const JOURNEY_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Which way a journey runs from its `page`: the paths after it (`next`) or the ones before it (`previous`). */
export const JOURNEY_DIRECTIONS = ['next', 'previous'] as const;
export type JourneyDirection = (typeof JOURNEY_DIRECTIONS)[number];

export function isJourneyDirection(text: string): text is JourneyDirection {
  return (JOURNEY_DIRECTIONS as readonly string[]).includes(text);
}

/** Whether a breakdown's `views` are events (events and properties: occurrences) rather than pageviews. */
export function viewsAreEvents(dimension: QueryDimension): boolean {
  return dimension === 'event' || isPropertyDimension(dimension);
}

/**
 * What a breakdown adds to its rows on request (`include=`): the one dimension it applies to (null:
 * any), and whether the request may have filters. Scroll depth is read per page from its own rollup,
 * which no filter narrows; a bounce rate or visit duration is each row's `stats` figure (docs/api.md).
 */
export const BREAKDOWN_INCLUDES = {
  bounceRate: { dimension: null, filters: true },
  avgDuration: { dimension: null, filters: true },
  timeOnPage: { dimension: 'page', filters: true },
  scrollDepth: { dimension: 'page', filters: false },
  vitals: { dimension: 'page', filters: false },
} as const satisfies Record<string, { dimension: Dimension | null; filters: boolean }>;
export type BreakdownInclude = keyof typeof BREAKDOWN_INCLUDES;

export function isBreakdownInclude(text: string): text is BreakdownInclude {
  return Object.hasOwn(BREAKDOWN_INCLUDES, text);
}

// ---- Web vitals (docs/api.md, Web vitals) ----------------------------------------------------

/**
 * The web vitals the tracker measures with `data-vitals` and sends on `engage` events: largest
 * contentful paint, interaction to next paint and time to first byte in milliseconds, cumulative
 * layout shift in thousandths. Each is a whole number from 0 to `max`; the endpoint drops another.
 * `good` and `poor` are the published thresholds: good up to `good`, poor above `poor`.
 */
export const WEB_VITALS = {
  lcp: { max: 600_000, good: 2500, poor: 4000 },
  inp: { max: 600_000, good: 200, poor: 500 },
  cls: { max: 100_000, good: 100, poor: 250 },
  ttfb: { max: 600_000, good: 800, poor: 1800 },
} as const;
export type WebVital = keyof typeof WEB_VITALS;
export const VITAL_NAMES = Object.keys(WEB_VITALS) as WebVital[];

// ---- Goals and funnels (docs/api.md, Goals' syntax) -----------------------------------------

/** What a goal or a funnel step matches: a page path pattern or an event name. */
export type MatchKind = 'page' | 'event';

/**
 * The custom property values an event goal also requires (all must match, each as a filter
 * `prop.<key>:<value>` matches); absent from a goal without any.
 */
export type GoalProps = Readonly<Record<string, string>>;
/** How many property values a goal may require, and the length of each value. */
export const GOAL_PROPS = { maxKeys: 10, maxValueLength: 500 } as const;
/**
 * How many goals a site keeps. Every read of goals matches all of a site's goals in one statement,
 * each page pattern spelled out as a regular expression of up to about 3.7 KB: 50 such goals stay
 * well under ClickHouse's `max_query_size` (256 KiB), so no site's goals can fail its reads or alerts.
 */
export const GOALS_PER_SITE_MAX = 50;

/** What a goal matches, as a goal filter carries its goals: its id, matcher, required property values and currency. */
export interface FilterGoal {
  readonly goalId: number;
  readonly kind: MatchKind;
  readonly pattern: string;
  readonly props?: GoalProps | null | undefined;
  readonly currency?: string | null | undefined;
}

/** A currency code as goals and events carry it: three capital letters (ISO 4217 style). */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

/** One step of a funnel: what it matches. */
export interface FunnelStep {
  kind: MatchKind;
  pattern: string;
}

/** How many steps a funnel has. */
export const FUNNEL_STEPS = { min: 2, max: 8 } as const;
/**
 * How many funnels (and versions of each), alert rules, shared links and report webhooks a site
 * keeps, and API keys in use an organisation: each funnel version is backfilled and read step by
 * step, each rule evaluated every minute, each webhook posted to by every report run, each link and
 * key a row every list and check reads, so that one tenant's bound the work it adds to everyone's.
 */
export const FUNNELS_PER_SITE_MAX = 50;
export const ALERT_RULES_PER_SITE_MAX = 50;
export const FUNNEL_VERSIONS_MAX = 100;
export const SHARED_LINKS_PER_SITE_MAX = 100;
export const REPORT_WEBHOOKS_PER_SITE_MAX = 20;
export const API_KEYS_PER_ORG_MAX = 100;

// ---- Sites -----------------------------------------------------------------------------------

/** An archived site collects nothing and frees its domain for a new site; its figures stay readable. */
export const SITE_STATUSES = ['active', 'archived'] as const;
export type SiteStatus = (typeof SITE_STATUSES)[number];

/**
 * The domain of a site tried out on the machine that serves its pages: it takes events from every
 * loopback origin (src/entities/sites.ts, `isLoopbackHost`, any port), and its snippet carries
 * `data-dev` so the tracker runs there. Here rather than beside `isLoopbackHost`, so that the
 * dashboard's site page reads it without bundling the forms' domain parsing.
 */
export const LOCAL_SITE_DOMAIN = 'localhost';

/**
 * How many site-local days (today included) a site keeps its raw events: the window of the queries
 * that need them. Older days are answered from rollups.
 */
export const RAW_DAYS = { min: 30, max: 800, default: 30 } as const;

/**
 * How many active sites an organisation keeps: each one is collected, rolled up, checked by the
 * alert and report tasks and kept by retention, so one tenant's sites bound the work it adds to all.
 * An archived site frees its place.
 */
export const SITES_PER_ORG_MAX = 1000;

/** A shared link's own filters (a segment's, src/core/segments.ts, may join them) and the domains that may embed it. */
export const MAX_LINK_FILTERS = 8;
export const MAX_EMBED_DOMAINS = 16;
/** The most `Sign-in domains` an organisation lists. */
export const MAX_SIGN_IN_DOMAINS = 20;

/** `raw=clip`: a read that needs raw events answers the part of its period inside the raw window. */
export const RAW_CLIP = 'clip';

/**
 * The spans a person picks from (the dashboard's `Keep single events`, `svc demo`): a month, or a
 * year and a month so that a filtered year compares with the year before it, or two years and a
 * month. `suggested` is what a new site starts with where a person chooses; the admin API keeps
 * RAW_DAYS.default. Each is named by `count` `unit`s, in the reader's words (Intl's).
 */
export const RAW_DAYS_CHOICES = [
  { days: 30, count: 30, unit: 'day' },
  { days: 396, count: 13, unit: 'month' },
  { days: 761, count: 25, unit: 'month' },
] as const;
export const SUGGESTED_RAW_DAYS = RAW_DAYS_CHOICES[1].days;

// ---- Roles (docs/accounts.md) ----------------------------------------------------------------
//
// Every role reads the organisation's sites; admin also changes its sites, goals, funnels, alert
// rules and API keys; owner also manages its members.

/**
 * An API key's scope: `read` reads statistics through /v1; `manage` also manages its organisation's
 * sites through /app/v1/manage, acting as an admin.
 */
export const KEY_SCOPES = ['read', 'manage'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export const ROLES = ['viewer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` grants at least what `needed` grants. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

// ---- Imports (docs/imports.md) ------------------------------------------------------------------

/** The tools whose exports svc imports. */
export const IMPORT_SOURCES = ['plausible', 'goatcounter', 'umami', 'ga4'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
/** The sources whose exports hold raw events: their rows become events, which deleting the import removes. */
export const EVENT_IMPORT_SOURCES: readonly ImportSource[] = ['goatcounter', 'umami'];
/** The sources read from the tool's own API (its request names the account), not from an uploaded file. */
export const API_IMPORT_SOURCES: readonly ImportSource[] = ['ga4'];
export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

// ---- Alert rules (docs/webhooks.md) ----------------------------------------------------------

/** What an alert rule watches: a spike or a drop of visitors, hours of silence, or a goal's conversions. */
export const RULE_TYPES = ['spike', 'drop', 'silence', 'goal'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

export function isRuleType(value: unknown): value is RuleType {
  return typeof value === 'string' && (RULE_TYPES as readonly string[]).includes(value);
}
