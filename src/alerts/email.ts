// The optional email channel (SVC_SMTP_URL). It runs beside the webhook queue, never in it: a
// slow or failing SMTP server delays no webhook, and a refused webhook URL stops no mail.
import type { AlertPayload } from './payload.js';

/** Sends one mail (an HTML part and headers besides the text when given); rejects on failure. */
export type MailSender = (message: { to: string[]; subject: string; text: string; html?: string; headers?: Record<string, string>; messageId?: string }) => Promise<void>;

/**
 * A sender through the SMTP server of `smtpUrl`. `timeoutMs` bounds connecting, the greeting and
 * each wait on the socket, for a sender someone waits on (an invitation's answer).
 */
export function smtpMailSender(smtpUrl: string, from: string, timeoutMs?: number): MailSender {
  const timeouts = timeoutMs === undefined ? {} : { connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs };
  // nodemailer (14 MB resident) is loaded at the first mail, not at start: most processes send none.
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  return async ({ to, subject, text, html, headers, messageId }) => {
    transport ??= import('nodemailer').then(({ createTransport }) => createTransport({ url: smtpUrl, ...timeouts }));
    await (await transport).sendMail({ from, to, subject, text, ...(html === undefined ? {} : { html }), ...(headers === undefined ? {} : { headers }), ...(messageId === undefined ? {} : { messageId }) });
  };
}

export function alertMail(payload: AlertPayload): { subject: string; text: string } {
  const prefix = payload.test ? '[svc test] ' : '[svc] ';
  const subject = `${prefix}${payload.type} alert for ${payload.site}`;
  const text = [
    `Rule ${payload.rule} (${payload.type}) fired for ${payload.site} at ${payload.at}.`,
    `Value: ${payload.value}; threshold: ${payload.threshold ?? 'n/a'}.`,
    payload.test ? 'This is a test send.' : '',
  ]
    .filter((line) => line !== '')
    .join('\n');
  return { subject, text };
}
