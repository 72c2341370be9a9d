// An alert delivery's status and a refused webhook URL in words, each refusal with how to fix it
// (the URL rules of docs/webhooks.md), in the page's language. test/web/lib.test.ts holds these reasons to the server's list.
import { fill } from './i18n.js';
import { siteSettingsText } from './text/site-settings.js';

type Reason = keyof typeof siteSettingsText.refusals;
const isRefusal = (reason: string): reason is Reason => Object.hasOwn(siteSettingsText.refusals, reason);

/** A `rejected:<reason>` status or refusal message in words; undefined for anything else. */
export function refusalInWords(text: string): string | undefined {
  const reason = /^rejected:([a-z-]+)/.exec(text)?.[1];
  return reason !== undefined && isRefusal(reason) ? siteSettingsText.refusals[reason] : undefined;
}

/** An attempt's or delivery's status as a short phrase. */
export function statusInWords(status: string): string {
  if (Object.hasOwn(siteSettingsText.deliveryStatus, status)) return siteSettingsText.deliveryStatus[status]!;
  const http = /^failed:http-(\d+)$/.exec(status)?.[1];
  if (http !== undefined) return fill(siteSettingsText.httpFailure, { status: http });
  const refusal = refusalInWords(status);
  return refusal === undefined ? status : fill(siteSettingsText.refusedStatus, { why: refusal });
}
