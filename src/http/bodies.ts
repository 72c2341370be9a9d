// The JSON bodies the admin API (/admin/v1) and the dashboard's API (/app/v1, its manage routes
// included) take, declared once as JSON Schemas: readBody (./validate.ts) checks a request's body
// against its schema, the dashboard's typed client (src/http/app-v1/routes.ts) and the CLI send the
// types derived from them (`Static`), and the manage routes' OpenAPI entries list their fields.
// The dashboard imports this module with `import type` only: TypeBox stays out of its bundle.
//
// Each field is checked here as far as its type and bounds say (a trimmed text, an integer in a
// range, a flag, one of a list, a day, a list of strings); the route then reads what only it knows
// (a domain, a time zone, a page pattern). A field whose check belongs wholly elsewhere (an email,
// a new password, an alert rule, checked by the service the CLI shares) is declared `ownCheck`:
// typed here, checked with its own message by the route or service reading it.
import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { PAGE_PATTERN_LIMITS } from '../core/patterns.js';
import { ANNOTATION_TEXT_LENGTH, SEGMENT_NAME_LENGTH } from '../core/segments.js';
import type { MessageName } from '../core/errors.js';
import {
  FUNNEL_STEPS,
  KEY_SCOPES,
  MAX_EMBED_DOMAINS,
  MAX_LINK_FILTERS,
  MAX_SIGN_IN_DOMAINS,
  RAW_DAYS,
  ROLES,
  RULE_TYPES,
  SITE_STATUSES,
  type GoalProps,
} from '../core/vocabulary.js';
import { DIGEST_KINDS } from '../storage/meta/digest-types.js';
import { LANGUAGES } from '../core/messages/language.js';

/** The schema keyword marking a field its reader checks (see ownCheck). */
export const OWN_CHECK = 'x-own-check';
/** The schema keyword naming the refusal a field's failed check answers, when not the default one for its type. */
export const REFUSAL = 'x-refusal';

/** A message of the catalogue's INVALID_PARAMS and the values of its placeholders. */
export interface Refusal {
  message: MessageName<'INVALID_PARAMS'>;
  params?: Record<string, string | number>;
}

/** A closed object: a field it does not list is refused, naming the fields it takes. */
const body = <P extends TProperties>(properties: P): TObject<P> => Type.Object(properties, { additionalProperties: false });

/** A trimmed, non-empty text of at most `max` characters (the answer has it trimmed). */
const text = (max = 200) => Type.String({ minLength: 1, maxLength: max });
/**
 * A text kept as typed, never trimmed (a password, a code, a filter), answering `refusal` when
 * absent, empty or longer than `max`; `blankRefused`: one of spaces alone is refused too.
 */
const verbatim = (max: number, refusal?: Refusal, blankRefused = false) =>
  Type.String({ minLength: 1, maxLength: max, 'x-verbatim': true, ...(blankRefused && { 'x-blank-refused': true }), ...(refusal && { [REFUSAL]: refusal }) });
const integer = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });
const flag = () => Type.Boolean();
const oneOf = <const V extends readonly string[]>(values: V) => Type.Unsafe<V[number]>(Type.Union(values.map((v) => Type.Literal(v))));
/** A site-local day, YYYY-MM-DD. */
const day = () => Type.String({ format: 'day' });
/** At most `max` non-empty strings, kept as sent (their reader parses them); any fault answers `refusal`. */
const strings = (max: number, refusal: Refusal) => Type.Array(verbatim(2100), { maxItems: max, [REFUSAL]: refusal });
/** A field typed here and checked by the route or service that reads it, with that value's own message; it arrives as sent. */
const ownCheck = <T>() => Type.Unsafe<T>({ [OWN_CHECK]: true });
const optional = Type.Optional;

const password = (name = 'password') => verbatim(1024, name === 'password' ? { message: 'password' } : { message: 'stringLength', params: { name, max: 1024 } });
const code = () => verbatim(64, { message: 'code' }, true);
const email = () => ownCheck<string>();
const reportPeriod = () => optional(oneOf(DIGEST_KINDS as readonly ['weekly', 'monthly']));

/** A body-less action: any field is refused. */
export const NO_BODY = body({});

// Signing in, first run, the user's own account and reports (src/http/app-v1).
export const SIGN_IN = body({ email: text(254), password: password(), code: optional(code()) });
export const SET_UP = body({ setupToken: text(1024), email: email(), password: ownCheck<string>(), organisation: text(), name: optional(text()) });
export const NEW_PASSWORD = body({ currentPassword: password('currentPassword'), newPassword: ownCheck<string>() });
export const NEW_EMAIL = body({ currentPassword: password('currentPassword'), email: email() });
export const CURRENT_PASSWORD = body({ currentPassword: password('currentPassword') });
export const TWO_FACTOR_CONFIRMATION = body({ code: code(), currentPassword: password('currentPassword') });
export const TWO_FACTOR_CODE = body({ code: code() });
export const REPORT_SCHEDULE = body({ weekly: flag(), monthly: flag() });
export const REPORT_SEND = body({ period: reportPeriod() });
export const LANGUAGE_CHOICE = body({ language: Type.Union([oneOf(LANGUAGES), Type.Null()]) });
export const SHARE_OPENING = body({ token: text(64), password: optional(password()) });
export const INVITATION_ACCOUNT = body({ password: ownCheck<string>(), name: optional(text()) });

// The operator's own routes (src/http/admin).
export const NEW_ORG = body({ name: text() });
export const NEW_RELAY_KEY = body({ name: optional(text()) });
export const MAINTENANCE_RUN = body({ tasks: optional(ownCheck<string[]>()) });
export const NEW_USER = body({ email: email(), password: ownCheck<string>(), name: optional(text()) });
export const USER_PASSWORD = body({ password: ownCheck<string>() });
export const USER_EMAIL = body({ email: email() });
export const MEMBER_BY_EMAIL = body({ email: email(), role: oneOf(ROLES) });
export const REPORT_MAILED = body({ email: email(), period: reportPeriod() });

// An organisation's sites, keys, members and sign-in (org-routes.ts, members.ts).
const siteFields = {
  name: text(),
  timezone: text(64),
  retentionMonths: optional(Type.Union([integer(1, 1200), Type.Null()])),
  rawDays: optional(integer(RAW_DAYS.min, RAW_DAYS.max)),
  honorGpc: optional(flag()),
};
export const NEW_SITE = body({ domain: text(253), ...siteFields });
export const SITE_CHANGE = body({ ...Type.Partial(Type.Object(siteFields)).properties, status: optional(oneOf(SITE_STATUSES)) });
export const NEW_KEY = body({ name: optional(text()), scope: optional(oneOf(KEY_SCOPES)) });
export const ROLE = body({ role: oneOf(ROLES) });
export const TWO_FACTOR_REQUIREMENT = body({ required: flag() });
export const SIGN_IN_SETTINGS = body({
  domains: optional(strings(MAX_SIGN_IN_DOMAINS, { message: 'signInDomains', params: { max: MAX_SIGN_IN_DOMAINS } })),
  requireSingleSignOn: optional(flag()),
});
export const INVITATION = body({ email: email(), role: oneOf(ROLES) });

// A site's goals, funnels and alert rules (site-routes.ts, alerts.ts).
const MATCH_KINDS = ['page', 'event'] as const;
const pattern = () => text(PAGE_PATTERN_LIMITS.maxLength);
export const NEW_GOAL = body({
  name: text(),
  kind: oneOf(MATCH_KINDS),
  pattern: pattern(),
  props: optional(ownCheck<GoalProps | null>()),
  currency: optional(ownCheck<string | null>()),
});
const funnelSteps = Type.Array(body({ kind: oneOf(MATCH_KINDS), pattern: pattern() }), {
  minItems: FUNNEL_STEPS.min,
  maxItems: FUNNEL_STEPS.max,
  [REFUSAL]: { message: 'funnelSteps', params: FUNNEL_STEPS },
});
export const NEW_FUNNEL = body({ name: text(), windowMinutes: integer(1, 30 * 24 * 60), steps: funnelSteps });
export const FUNNEL_STEPS_CHANGE = body({ steps: funnelSteps });
// The alert service checks a rule (shared with the CLI); the order is the published one.
const ruleFields = {
  type: ownCheck<(typeof RULE_TYPES)[number]>(),
  threshold: ownCheck<number>(),
  url: ownCheck<string>(),
  secret: ownCheck<string>(),
  goalId: ownCheck<number | null>(),
  emails: ownCheck<string[]>(),
};
export const NEW_ALERT_RULE = body({ ...ruleFields, goalId: optional(ruleFields.goalId), emails: optional(ruleFields.emails) });
export const ALERT_RULE_CHANGE = body(Type.Partial(Type.Object(ruleFields)).properties);

// Shared links, segments, annotations, imports and report webhooks.
export const NEW_SHARED_LINK = body({
  password: optional(ownCheck<string | null>()),
  expiresOn: optional(ownCheck<string | null>()),
  filters: optional(strings(MAX_LINK_FILTERS, { message: 'sharedLinkFilters', params: { max: MAX_LINK_FILTERS } })),
  segment: optional(Type.Integer()),
  embedDomains: optional(strings(MAX_EMBED_DOMAINS, { message: 'embedDomains', params: { max: MAX_EMBED_DOMAINS } })),
});
export const NEW_SEGMENT = body({ name: text(SEGMENT_NAME_LENGTH.max), filters: ownCheck<string[]>(), shared: optional(flag()) });
export const SEGMENT_CHANGE = body(Type.Partial(NEW_SEGMENT).properties);
export const NEW_ANNOTATION = body({ date: day(), text: text(ANNOTATION_TEXT_LENGTH.max) });
export const ANNOTATION_CHANGE = body(Type.Partial(NEW_ANNOTATION).properties);
export const GA4_IMPORT = body({ property: ownCheck<string | number>(), key: ownCheck<string | Record<string, unknown>>(), from: optional(ownCheck<string>()), to: optional(ownCheck<string>()) });
export const NEW_REPORT_WEBHOOK = body({ url: ownCheck<string>(), secret: text(256), weekly: flag(), monthly: flag() });

export type Body<S extends TObject> = Static<S>;
