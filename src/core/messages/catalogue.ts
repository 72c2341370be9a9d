// The message catalogue: the English sections are the source (./en/), and a translation is typed
// from them, so that a language missing an entry, or carrying one English lacks, fails the type
// check. The dashboard's sections (WebCatalogue) are bundled, English in every page that uses them,
// a translation in a chunk of its own fetched only for its language; the mails' (MailCatalogue)
// stay on the server.
import type { Plural } from './language.js';
import type { frame, names } from './en/common.js';
import type { period } from './en/period.js';
import type { dashboard } from './en/dashboard.js';
import type { firstEvent } from './en/first-event.js';
import type { readErrors } from './en/read-errors.js';
import type { segments } from './en/segments.js';
import type { account } from './en/account.js';
import type { mail } from './en/mail.js';

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
}

export type MailCatalogue = Translated<typeof mail>;
