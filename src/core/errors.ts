// The error catalogue: every error a client can see, with its HTTP status and the templates of its
// messages. Handlers throw `apiError(code, message, params)`; the HTTP layer turns it into
// `{ error: { code, message } }` on the read API (/v1, docs/api.md's envelope), and into
// `{ error: { code, reason, message } }` on /app/v1 and /admin/v1, where `reason` names the template
// (reasonOf) so that clients branch on it, never on the text; /app/v1 writes the message in the
// request's language (src/core/messages/errors.ts). A template's name is therefore part of
// those APIs: renaming it renames its reason. docs/api.md's error table lists every code, and
// docs/admin-api.md's reasons table every reason (test/lint/errors.test.ts).

export const ERRORS = {
  UNAUTHORIZED: {
    status: 401,
    messages: {
      credentials: 'missing or invalid credentials',
      wrongPassword: 'Wrong email or password.',
      wrongCode: 'Wrong code.',
      codeUsed: 'This code was just used: wait for the next one.',
      wrongSharePassword: 'Wrong password.',
      wrongCurrentPassword: 'The current password is wrong.',
    },
  },
  FORBIDDEN: {
    status: 403,
    messages: {
      crossOrigin: 'cross-origin request refused: Origin {origin} is not this service',
      csrfToken: 'missing or wrong {header} header: send the csrfToken of GET /app/v1/session',
      role: 'this needs the {needed} role in the organisation; yours is {role}',
      twoFactorRequired:
        'an organisation of yours requires two-factor sign-in: enable it on /account/security to use the dashboard',
      shareScope: 'a shared link reads the statistics of its own site only',
      shareLocked: 'this shared link is locked to filters: {endpoint} takes no filters, so it is not shared',
      shareLockedGoals: 'this shared link is locked to pages: goal filters, which read the site\'s goals, are not shared through it',
      shareLockedPages: 'this shared link is locked to pages: its goals, whose patterns may name pages outside the lock, are not shared through it',
      twoFactorFirst: 'enable two-factor sign-in on your own account before requiring it of every member',
      singleSignOnRequired: 'Use single sign-on: {orgs} requires it of its members, so a password does not sign in.',
      emailByOperator:
        'this service mails no links (the operator has not set SVC_SMTP_URL and SVC_PUBLIC_URL), so only the operator changes an email or confirms one: ask them',
      signInDomains: 'sign-in domains are granted by the operator only (svc org sign-in-domains): ask them for one',
      keyScope: 'an API key manages sites only: members, invitations, keys and the organisation itself need a signed-in owner or admin',
      otherEmail:
        'this invitation is for another email than yours ({email}): sign out, then sign in with the invited email or create its account',
    },
  },
  NOT_FOUND: {
    status: 404,
    messages: {
      id: 'not found',
      route: 'no route {method} {path}',
      unknownPath: 'no route {path}',
      asset: 'no such asset',
      organisation: 'organisation not found',
      site: 'site not found',
      key: 'key not found',
      goal: 'goal not found',
      import: 'import not found',
      funnel: 'funnel not found',
      alertRule: 'alert rule not found',
      user: 'user not found',
      userByEmail: 'no user has this email',
      membership: 'membership not found',
      invitation: 'invitation not found',
      invitationGone:
        'this invitation link is not valid: it was used or revoked, or it expired. Ask an owner of the organisation for a new one',
      setupDone: 'setup is done: sign in instead',
      twoFactor: 'two-factor sign-in is not enabled for this user',
      unsubscribe: 'this unsubscribe link is not valid',
      emailConfirmation: 'this confirmation link is not valid: it was used or replaced by a newer one, or it expired. Ask for a new one on your account page',
      digestWebhook: 'report webhook not found',
      sharedLink: 'this shared link is not valid: it was revoked or it expired. Ask the site\'s admin for a new one',
      segment: 'segment not found',
      annotation: 'annotation not found',
    },
  },
  METHOD_NOT_ALLOWED: { status: 405, messages: { getOnly: '{method} is not allowed; use GET' } },
  INVALID_PARAMS: {
    status: 400,
    messages: {
      // The request itself
      invalidRequest: 'invalid request',
      malformedRequest: 'malformed HTTP request',
      malformedUrl: 'malformed URL',
      notJson: 'body is not valid JSON',
      notObject: 'body must be a JSON object',
      prototypeKey: 'body must not have a __proto__ or constructor.prototype key',
      unknownField: 'unknown field {field}; allowed: {allowed}',
      unexpectedField: 'unknown field {field}; this request takes no body',
      // One field or query parameter, named
      required: '{name} is required',
      nonEmptyString: '{name} is required and must be a non-empty string',
      tooShort: '{name} must be at least {min} characters',
      tooLong: '{name} must be at most {max} characters',
      stringLength: '{name} must be a string of 1 to {max} characters',
      boolean: '{name} must be true or false',
      integer: '{name} must be an integer',
      integerFrom: '{name} must be an integer from {min} to {max}',
      outOfRange: '{name} must be an integer between {min} and {max}',
      oneOf: '{name} must be one of {values}',
      repeated: '{name} must be given at most once',
      // The read API's query
      period: 'unknown period; expected one of {presets}',
      periodBounds: 'from and to must be given together',
      day: '{name} must be a day YYYY-MM-DD from {first} to {last}',
      filterDimension: 'unknown filter dimension; expected one of {dimensions}',
      filterPropertyKey:
        'filter prop.<key>:<value> needs a property key of {min} to {max} characters before the first ":" (a key containing ":" cannot be filtered)',
      filterEmpty: 'filter {dimension} has an empty value',
      filterValues: 'filter {dimension} lists more than {max} values',
      filterTooLong: 'filter {dimension} value is too long (at most {max} characters)',
      filterTwice: 'filter {dimension} is given twice',
      filterCount: 'at most {max} filters are taken at once',
      filterValuesTotal: 'the filters list more than {max} values together',
      filtersRefused: 'filters are not accepted here',
      filterGoalOperator: 'filter goal takes is only (goal:<goalId>): !: and ~: are refused',
      filterGoalId: 'filter goal needs goal ids as the admin API gives them (goal:<goalId>); got {value}',
      filterGoalUnknown: 'filter goal names goal {goalId}, which is no goal of this site',
      filterGoalKind: 'filter goal is taken by stats, timeseries, breakdown and goals only',
      filterGoalClip: 'filter goal is read from single events: add raw=clip',
      goalFilterMetric: 'metric {metric} needs a goal filter (filter=goal:<goalId>) and raw=clip',
      segmentFilterTwice: 'filter {dimension} is also a filter of the segment: filter another dimension, or apply no segment',
      metric: 'unknown metric; expected one of {metrics}',
      dimension: 'unknown dimension; expected one of {dimensions}',
      propertyDimension: 'dimension prop.<key> needs a property key of {min} to {max} characters',
      segmentFilters: 'filters must be an array of {min} to {max} filters <dimension>:<value>',
      personalSegment: 'a personal segment belongs to a signed-in member: the operator makes shared segments only',
      sharedLinkFilters: 'filters must be an array of at most {max} filters <dimension>:<value>',
      lockedGoalFilter: 'a shared link is not locked to a goal filter: a locked link shares no goals',
      sharedLinkExpired: 'expiresOn must be today or a later day (YYYY-MM-DD, in the site\'s time zone)',
      segmentPagePattern: "the segment's page filter holds *, which a shared link's lock reads as a pattern: lock the link to filters instead",
      embedDomains: 'embedDomains must be an array of at most {max} host names such as example.com',
      signInDomains: 'domains must be an array of at most {max} email domains such as example.com',
      code: 'code must be the 6 digits of the authenticator app or a recovery code',
      compareOff: 'compare=true needs a compared period; comparison is off',
      journeyPage: 'page must be a path starting with / of at most {max} characters',
      // The admin and dashboard APIs' bodies
      domain: 'domain must be a host name such as example.com (no scheme, port or path)',
      email: 'email must be an email address such as ana@example.com',
      password: 'password is required and must be a string of at most 1024 characters',
      timezone: 'timezone {value} is not an IANA time zone',
      tasks: 'tasks must be an array of: {tasks}',
      outcomeSeq: 'after must be a whole number (the seq of the last outcome seen)',
      funnelSteps: 'steps must be an array of {min} to {max} steps',
      goalProps: 'props must be an object of at most {maxKeys} custom property keys ({min} to {max} characters each) and string values (at most {maxValue} characters)',
      goalPropsKind: 'props are required property values of an event goal; a page goal takes none',
      pagePatternStart: '{field}: a page pattern starts with / (wildcards * and **)',
      pagePatternLength: '{field}: a page pattern has at most {max} characters',
      pagePatternWildcards: '{field}: a page pattern has at most {max} wildcards (* or **), this one has {wildcards}',
      eventPattern: '{field}: an event pattern is an event name matching {pattern}',
      goalCurrency: '{field}: a currency is an ISO 4217 code of three capital letters, such as EUR',
      revenueGoalKind: '{field}: only event goals count revenue',
      breakdownInclude: 'include={include}: a breakdown includes bounceRate, avgDuration, and scrollDepth and vitals (page breakdowns without filter) only',
      threshold: 'threshold must be a number between 0 and {max}',
      emails: 'emails must be an array of at most {max} email addresses',
      goalIdOfOtherRule: 'goalId applies to goal rules only',
      goalIdMissing: 'goal rules need an integer goalId',
      foreignGoal: 'goal {goalId} is not a goal of this site',
      ruleType: 'the type of a rule cannot change; create a new rule',
    },
  },
  INVALID_PERIOD: {
    status: 400,
    messages: {
      reversed: 'from is later than to',
      tooLong: 'the period is longer than {max} days',
    },
  },
  INVALID_TIMEZONE: { status: 400, messages: { site: 'the site has an invalid time zone' } },
  INVALID_IMPORT: {
    status: 400,
    messages: {
      file: 'the file is not an export svc reads: {reason}',
      source: 'source must be one of {sources}',
      googleProperty: 'property must be the numeric id of a GA4 property (Admin, Property details)',
      googleKey: 'key is not a service account key svc can use: {reason}',
    },
  },
  RAW_WINDOW_EXCEEDED: {
    status: 400,
    messages: {
      filters: "two or more filters, or a filter with another dimension's breakdown, need a period within the last {days} days",
      pagePattern: 'a page pattern (this shared link is limited to matching pages) needs a period within the last {days} days',
      propertyNone: 'a filter prop.<key>:(none) (the events without a property) needs a period within the last {days} days',
      operator: 'a filter with several values, !: (is not) or ~: (contains) needs a period within the last {days} days',
      goals: 'conversions under a filter need a period within the last {days} days',
      journeys: 'journeys read single events and need a period within the last {days} days',
      goalFilter: 'a goal filter reads single events and needs a period within the last {days} days',
    },
  },
  METRIC_NOT_FILTERABLE: { status: 400, messages: { metric: 'the {metric} metric does not take the given filters' } },
  HOURLY_CONVERSIONS_UNSUPPORTED: {
    status: 400,
    messages: { conversions: 'conversions are not available per hour; use a period of 3 days or more' },
  },
  INVALID_WEBHOOK_URL: { status: 400, messages: { rejected: 'rejected:{reason}: the webhook URL breaks a URL rule' } },
  REQUEST_TIMEOUT: {
    status: 408,
    messages: {
      request: 'the request did not arrive in time',
      body: 'the request body did not arrive in time',
    },
  },
  CONFLICT: {
    status: 409,
    messages: {
      domain: 'an active site of this organisation already uses the domain {domain}',
      email: 'a user with this email already exists',
      member: 'this email is already a member of the organisation',
      lastOwner: 'an organisation keeps at least one owner; make another member owner first',
      lastOwnerLeaving:
        'you are the last owner of {orgs}: make another member owner (or have the operator remove the organisation) before deleting your account',
      twoFactorEnabled: 'two-factor sign-in is already enabled: disable it first to set up a new authenticator',
      twoFactorRequiredBy: '{orgs} requires two-factor sign-in of every member: it stays on while you are a member',
      twoFactorNotPending: 'no two-factor set-up is pending: start with POST /app/v1/account/two-factor/setup',
      goal: 'a goal with this kind and pattern already exists on this site (goal {goalId})',
      goals: 'a site keeps at most {max} goals: delete one first',
      segments: 'a site keeps at most {max} segments: delete one first',
      annotations: 'a site keeps at most {max} annotations: delete one first',
      funnels: 'a site keeps at most {max} funnels: delete one first',
      funnelVersions: 'a funnel keeps at most {max} versions of its steps: make a new funnel',
      alertRules: 'a site keeps at most {max} alert rules: delete one first',
      sites: 'an organisation keeps at most {max} active sites: archive one first',
      sharedLinks: 'a site keeps at most {max} shared links: revoke one first',
      reportWebhooks: 'a site keeps at most {max} report webhooks: delete one first',
      apiKeys: 'an organisation keeps at most {max} API keys in use: revoke one first',
      singleSignOnUnconfigured: 'single sign-on is not configured on this service (SVC_OIDC_ISSUER): it cannot be required of members',
    },
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    messages: {
      body: 'request body too large',
      importFile: 'an import file is at most {max} bytes (nothing of it was kept)',
      importLines:
        'an import takes at most {max} lines: split the file, where no site-local day has lines on both sides (svc import does this itself; nothing of this call was stored)',
      unsortedImport:
        'an import that is not sorted by time is limited to {max} bytes: sort the file by ts, or split it (nothing of this call was stored)',
    },
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, messages: { json: 'unsupported content type: send application/json' } },
  RATE_LIMITED: {
    status: 429,
    messages: {
      readApi: 'rate limit exceeded ({perHour} requests/hour per key)',
      dashboard: 'rate limit exceeded ({perMinute} requests/minute per user)',
      invitations: 'an organisation sends at most {perHour} invitations an hour',
      emailConfirmations: 'a user is sent at most {perHour} confirmation mails an hour',
      passwordChecks: 'Too many passwords are being checked at once. Try again in a few seconds.',
      lockedOut: 'Too many failed attempts. Try again in 15 minutes.',
      signIns: 'Too many sign-in attempts from this address. Try again in a minute.',
      imports: 'a site has at most {max} imports uploading, queued or running at once: wait for one to end',
      longReads: 'at most {limit} long reads (raw events of more than {days} days) run at once per key or user, and {waiting} wait: retry when one has finished',
      testReports: 'a member has at most {perUser} test reports mailed an hour, and an organisation {perOrg}',
      alertTests: 'an organisation sends at most {perOrg} alert tests an hour, and a member {perUser}',
      alertMails: "an organisation's alert rules send at most {perHour} mails an hour",
    },
  },
  HEADERS_TOO_LARGE: { status: 431, messages: { headers: 'request headers too large' } },
  INTERNAL: { status: 500, messages: { internal: 'internal error; retrying is advised' } },
  // A read statement the event store cancelled at its deadline (SVC_STATEMENT_TIMEOUT_MS).
  QUERY_TIMEOUT: {
    status: 503,
    messages: {
      deadline: 'the query ran longer than {seconds} s and was cancelled: choose a shorter period or fewer filters',
      goalCount: "counting the rule's goal ran longer than {seconds} s and was cancelled: give the goal a page pattern with fewer wildcards",
    },
  },
  // A read statement the event store refused for want of memory (DuckDB's memory_limit, ClickHouse's max_memory_usage).
  QUERY_TOO_LARGE: {
    status: 503,
    messages: { memory: 'the query needed more memory than a read is given and was stopped: choose a shorter period, fewer filters or another breakdown' },
  },
  // A report asked for now (svc digest send, the account page's test report) that no mail carried.
  REPORT_NOT_SENT: {
    status: 503,
    messages: {
      mailOff: 'reports are not mailed here: the operator sets SVC_SMTP_URL and SVC_PUBLIC_URL to send them',
      smtp: 'the SMTP server did not take the report: {cause}',
    },
  },
  // A confirmation link that no mail carried (its earlier link ended all the same).
  MAIL_NOT_SENT: { status: 503, messages: { confirmation: 'the SMTP server did not take the confirmation mail: {cause}' } },
  // An import whose events are stored, but whose rollups failed after: the rollup task finishes them.
  IMPORT_ROLLUPS_PENDING: {
    status: 500,
    messages: {
      rollups:
        'the {accepted} accepted events are stored, but rolling up their days failed ({cause}): the rollup task completes them (every 10 minutes, or POST /admin/v1/maintenance/run); do not send this import again',
    },
  },
} as const satisfies Record<string, { status: number; messages: Record<string, string> }>;

export type ErrorCode = keyof typeof ERRORS;

/** The names of a code's message templates. */
export type MessageName<C extends ErrorCode> = keyof (typeof ERRORS)[C]['messages'] & string;

/** A template's name in capitals, its words joined by `_`: `wrongPassword` → `WRONG_PASSWORD`. */
type Capitals<S extends string> = S extends `${infer Head}${infer Rest}` ? `${Head extends Lowercase<Head> ? Uppercase<Head> : `_${Head}`}${Capitals<Rest>}` : '';

/** The words of a name in capitals: `NOT_FOUND` → `NOT` | `FOUND`. */
type Words<S extends string> = S extends `${infer Word}_${infer Rest}` ? Word | Words<Rest> : S;

/**
 * The reason of a template: its name's words, then its code's (`site` of NOT_FOUND →
 * `SITE_NOT_FOUND`), or its code alone when the name only repeats words of the code (`internal` of
 * INTERNAL → `INTERNAL`, `metric` of METRIC_NOT_FILTERABLE → `METRIC_NOT_FILTERABLE`).
 */
export type ReasonOf<C extends ErrorCode, M extends MessageName<C>> = [Words<Capitals<M>>] extends [Words<C>] ? C : `${Capitals<M>}_${C}`;

/** Every reason of the catalogue: one per template. */
export type ErrorReason = { [C in ErrorCode]: { [M in MessageName<C>]: ReasonOf<C, M> }[MessageName<C>] }[ErrorCode];

/** The reason of a template, as ReasonOf spells it. */
export function reasonOf<C extends ErrorCode, M extends MessageName<C>>(code: C, message: M): ReasonOf<C, M> {
  const name = message.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
  const codeWords = code.split('_');
  return (name.split('_').every((word) => codeWords.includes(word)) ? code : `${name}_${code}`) as ReasonOf<C, M>;
}

/** The English template of a message. */
export type Template<C extends ErrorCode, M extends MessageName<C>> = (typeof ERRORS)[C]['messages'][M] & string;

/** The `{name}` placeholders of a template. */
export type Placeholders<T extends string> = T extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;

/** The names of a code's templates without placeholders: one a function takes from its caller, as OrgAccess.require takes its not-found. */
export type FixedMessageName<C extends ErrorCode> = {
  [M in MessageName<C>]: [Placeholders<Template<C, M>>] extends [never] ? M : never;
}[MessageName<C>];

type Headers = Record<string, string>;

/** A template without placeholders takes no parameters; one with them takes a value for each. */
type MessageArgs<C extends ErrorCode, M extends MessageName<C>> = [Placeholders<Template<C, M>>] extends [never]
  ? [params?: Record<string, never>, headers?: Headers]
  : [params: Record<Placeholders<Template<C, M>>, string | number>, headers?: Headers];

/** The parameters a template was filled with. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** `template` with each `{name}` replaced by `params.name`. */
export function fillTemplate(template: string, params: MessageParams): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly reason: ErrorReason;
  readonly status: number;
  readonly headers: Headers;
  /** The template's name and parameters: what writes the message again in another language (src/core/messages/errors.ts). */
  readonly messageName: string;
  readonly params: MessageParams;

  // Private so that every message a client sees is built from the catalogue (ApiError.of, apiError).
  private constructor(code: ErrorCode, messageName: string, params: MessageParams, headers: Headers) {
    super(fillTemplate((ERRORS[code].messages as Record<string, string>)[messageName]!, params));
    this.name = 'ApiError';
    this.code = code;
    this.reason = reasonOf(code, messageName as MessageName<ErrorCode>) as ErrorReason;
    this.status = ERRORS[code].status;
    this.headers = headers;
    this.messageName = messageName;
    this.params = params;
  }

  /**
   * The error of a code, its message filled in from the named template (`{name}` → `params.name`). A
   * static method rather than a static block that hands the constructor out: a module without side
   * effects, which the dashboard's bundle leaves out when it uses none of it.
   */
  static of<C extends ErrorCode, M extends MessageName<C>>(code: C, message: M, ...[params = {}, headers = {}]: MessageArgs<C, M>): ApiError {
    return new ApiError(code, message, params, headers);
  }
}

/** The error of a code, its message filled in from the named template: ApiError.of. */
export function apiError<C extends ErrorCode, M extends MessageName<C>>(code: C, message: M, ...args: MessageArgs<C, M>): ApiError {
  return ApiError.of(code, message, ...args);
}

/** The read API's error answer (docs/api.md): the code and the message. */
export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string };
}

/** The error answer of /app/v1 and /admin/v1: the read API's, with the template's reason. */
export interface ReasonedErrorEnvelope {
  error: { code: ErrorCode; reason: ErrorReason; message: string };
}

/** The read API's envelope of `err`; `message` is its English one unless a translation is given. */
export function envelope(err: ApiError, message = err.message): ErrorEnvelope {
  return { error: { code: err.code, message } };
}

export function envelopeWithReason(err: ApiError, message = err.message): ReasonedErrorEnvelope {
  return { error: { code: err.code, reason: err.reason, message } };
}
