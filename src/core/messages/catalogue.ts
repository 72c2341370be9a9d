// The message catalogue: the English sections are the source (./en/), and a translation is typed
// from them, so that a language missing an entry, or carrying one English lacks, fails the type
// check. The dashboard's sections (WebCatalogue) are bundled, English in every page that uses them,
// a translation in a chunk of its own fetched only for its language; the mails' (MailCatalogue), the
// server-written pages' (PlainPagesCatalogue) and the error catalogue's translations (ErrorCatalogue,
// typed from src/core/errors.ts's ERRORS) stay on the server.
import type { Plural } from './language.js';
import type { ErrorCode, MessageName, Placeholders, Template } from '../errors.js';
import type { frame, names } from './en/common.js';
import type { period } from './en/period.js';
import type { dashboard } from './en/dashboard.js';
import type { firstEvent } from './en/first-event.js';
import type { readErrors } from './en/read-errors.js';
import type { segments } from './en/segments.js';
import type { account } from './en/account.js';
import type { mail } from './en/mail.js';
import type { plainPages } from './en/plain-pages.js';
import type { signIn } from './en/sign-in.js';
import type { singleSignOn } from './en/single-sign-on.js';
import type { siteSettings } from './en/site-settings.js';
import type { siteFields } from './en/site-fields.js';
import type { orgSettings } from './en/org-settings.js';
import type { goals } from './en/goals.js';
import type { goalEditor } from './en/goal-editor.js';
import type { journeys } from './en/journeys.js';
import type { realtime } from './en/realtime.js';
import type { share } from './en/share.js';
import type { reports } from './en/reports.js';

/** An English section as its translations are typed: every entry a string, a Plural or a group of them. */
export type Translated<T> = T extends string ? string : T extends Plural ? Plural : { readonly [K in keyof T]: Translated<T[K]> };

export interface WebCatalogue {
  names: Translated<typeof names>;
  frame: Translated<typeof frame>;
  period: Translated<typeof period>;
  dashboard: Translated<typeof dashboard>;
  firstEvent: Translated<typeof firstEvent>;
  readErrors: Translated<typeof readErrors>;
  segments: Translated<typeof segments>;
  account: Translated<typeof account>;
  signIn: Translated<typeof signIn>;
  singleSignOn: Translated<typeof singleSignOn>;
  siteSettings: Translated<typeof siteSettings>;
  siteFields: Translated<typeof siteFields>;
  orgSettings: Translated<typeof orgSettings>;
  goals: Translated<typeof goals>;
  goalEditor: Translated<typeof goalEditor>;
  journeys: Translated<typeof journeys>;
  realtime: Translated<typeof realtime>;
  share: Translated<typeof share>;
  reports: Translated<typeof reports>;
}

export type MailCatalogue = Translated<typeof mail>;

export type PlainPagesCatalogue = Translated<typeof plainPages>;

/** The error catalogue's templates in another language: one for every template of ERRORS. */
export type ErrorCatalogue = { readonly [C in ErrorCode]: { readonly [M in MessageName<C>]: string } };

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A translation as it must be: each template as written when its placeholders are the English
 * one's, else the placeholders it must have, which no string fits (`de satisfies SamePlaceholders<typeof de>`).
 */
export type SamePlaceholders<T extends ErrorCatalogue> = {
  [C in ErrorCode]: {
    [M in MessageName<C> & keyof T[C]]: Same<Placeholders<T[C][M] & string>, Placeholders<Template<C, M>>> extends true ? T[C][M] : { placeholders: Placeholders<Template<C, M>> };
  };
};
