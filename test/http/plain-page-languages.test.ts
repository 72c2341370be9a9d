// The pages the server writes itself (src/http/plain-page.ts: the confirm-email link's, the report
// unsubscribe link's, /setup's once set-up is done) in the request's language, in process (Fastify
// inject, the accounts and digests stood in for): an Accept-Language svc writes gives that language's
// words and `<html lang>`, a refusal its translated message; no header keeps the English page byte
// for byte. Every language's section has the English one's entries and placeholders.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context.js';
import { EMAIL_CONFIRMATION_PATH } from '../../src/accounts/email-confirmations.js';
import { apiError } from '../../src/core/errors.js';
import { LANGUAGES } from '../../src/core/messages/language.js';
import { plainPageWords } from '../../src/core/messages/server.js';
import { emailConfirmationRoutes } from '../../src/http/email-confirmation.js';
import { unsubscribeRoutes } from '../../src/http/unsubscribe.js';
import { pageRoutes } from '../../src/http/dashboard/pages.js';
import type { WebBuild } from '../../src/http/dashboard/assets.js';

const GOOD = 'a'.repeat(43);
const USED = 'u'.repeat(43);
const TAKEN = 't'.repeat(43);
const CHANGED = 'c'.repeat(43);

/** The accounts' and digests' answers the pages need: a token's outcome picked by its letter. */
const ctx = {
  accounts: {
    emails: {
      wellFormed: (token: string) => /^[\w-]{43}$/.test(token),
      confirm: async (token: string) => {
        if (token === USED) throw apiError('NOT_FOUND', 'emailConfirmation');
        if (token === TAKEN) throw apiError('CONFLICT', 'email');
        return { outcome: token === CHANGED ? 'changed' : 'confirmed', email: 'ana+<b>@example.com' };
      },
    },
  },
  digests: {
    validUnsubscribeToken: (token: string) => /^\d+\.\d+\.(weekly|monthly)\.ok$/.test(token),
    unsubscribe: async (token: string) => ({ kind: token.split('.')[2] as 'weekly' | 'monthly' }),
  },
} as unknown as AppContext;

const BUILD: WebBuild = { files: new Map(), manifest: { pages: { setup: { script: 'setup-AAAAAAAA.js', preload: [], styles: [], icon: 'icon-AAAAAAAA.svg' } } } };

/** The page's shell around `title` and `body`, as plain-page.ts writes it. */
const shell = (html: string) => {
  const match = /^<!doctype html><html lang="(\w+)"><head>.*<title>(.*) · svc<\/title>.*<main><h1>(.*)<\/h1>(.*)<\/main><\/body><\/html>$/s.exec(html);
  assert.ok(match, html);
  assert.equal(match[2], match[3], 'the title is the heading');
  return { lang: match[1]!, title: match[3]!, body: match[4]! };
};

describe('the server-written pages in the request’s language', () => {
  let app: FastifyInstance;
  before(async () => {
    app = Fastify();
    await app.register(async (scoped) => emailConfirmationRoutes(scoped, ctx));
    await app.register(async (scoped) => unsubscribeRoutes(scoped, ctx));
    await app.register(async (scoped) =>
      pageRoutes(scoped, BUILD, { signedIn: async () => false, setupNeeded: async () => false, ownOrigin: () => 'http://svc.test', sharedLinkEmbedDomains: async () => [] }),
    );
  });

  const page = async (method: 'GET' | 'POST', url: string, language?: string) => {
    const headers: Record<string, string> = language === undefined ? {} : { 'accept-language': language };
    if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await app.inject({ method, url, headers, payload: method === 'POST' ? '' : undefined });
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    return { status: res.statusCode, raw: res.body, ...shell(res.body) };
  };
  const confirm = (token: string) => `${EMAIL_CONFIRMATION_PATH}/${token}`;

  test('without Accept-Language: every page in English, as before', async () => {
    const english = [
      ['GET', confirm(GOOD), 200, 'Confirm your email', '<p>Confirm this email as your svc account’s email?</p><form method="post"><button type="submit">Confirm</button></form>'],
      ['GET', confirm('short'), 404, 'Confirm your email', '<p>This confirmation link is not valid.</p>'],
      ['POST', confirm(GOOD), 200, 'Confirm your email', '<p role="status">Your email ana+&#60;b&#62;@example.com is confirmed.</p><p><a href="/login">Sign in</a></p>'],
      ['POST', confirm(CHANGED), 200, 'Confirm your email', '<p role="status">Your account’s email is now ana+&#60;b&#62;@example.com. Sign in again with it.</p><p><a href="/login">Sign in</a></p>'],
      ['POST', confirm(USED), 404, 'Confirm your email', '<p>this confirmation link is not valid: it was used or replaced by a newer one, or it expired. Ask for a new one on your account page</p>'],
      ['POST', confirm(TAKEN), 409, 'Confirm your email', '<p>a user with this email already exists</p>'],
      ['GET', '/unsubscribe/1.2.weekly.ok', 200, 'Email reports', '<p>Stop receiving this report for this site?</p><form method="post"><button type="submit">Unsubscribe</button></form>'],
      ['GET', '/unsubscribe/1.2.weekly.no', 404, 'Email reports', '<p>This unsubscribe link is not valid.</p>'],
      ['POST', '/unsubscribe/1.2.weekly.ok', 200, 'Email reports', '<p role="status">Done: you will no longer receive the weekly report of this site. Choose reports again on your account page.</p>'],
      ['POST', '/unsubscribe/1.2.monthly.ok', 200, 'Email reports', '<p role="status">Done: you will no longer receive the monthly report of this site. Choose reports again on your account page.</p>'],
      ['GET', '/setup', 404, 'Set-up is done', '<p>svc is set up: its first account exists. <a href="/login">Sign in</a> instead.</p>'],
    ] as const;
    for (const [method, url, status, title, body] of english) {
      for (const language of [undefined, 'ja, pt;q=0.5']) {
        const answer = await page(method, url, language);
        assert.deepEqual([answer.status, answer.lang, answer.title, answer.body], [status, 'en', title, body], `${method} ${url} (${language ?? 'no header'})`);
      }
    }
    assert.match((await page('GET', '/setup')).raw, /^<!doctype html><html lang="en"><head><meta charset="utf-8">/, 'the head as before');
  });

  test('German: each page, the refusals and the kind of report, in German with <html lang="de">', async () => {
    const de = 'de-DE,de;q=0.9,en;q=0.8';
    const question = await page('GET', confirm(GOOD), de);
    assert.deepEqual([question.status, question.lang, question.title], [200, 'de', 'E-Mail-Adresse bestätigen']);
    assert.equal(question.body, '<p>Diese E-Mail-Adresse als E-Mail-Adresse Ihres svc-Kontos bestätigen?</p><form method="post"><button type="submit">Bestätigen</button></form>');
    assert.equal((await page('GET', confirm('short'), de)).body, '<p>Dieser Bestätigungslink ist ungültig.</p>');
    assert.equal((await page('POST', confirm(CHANGED), de)).body, '<p role="status">Die E-Mail-Adresse Ihres Kontos lautet jetzt ana+&#60;b&#62;@example.com. Melden Sie sich damit erneut an.</p><p><a href="/login">Anmelden</a></p>');
    const used = await page('POST', confirm(USED), de);
    assert.deepEqual([used.status, used.lang], [404, 'de']);
    assert.equal(used.body, '<p>Dieser Bestätigungslink ist nicht gültig: Er wurde verwendet, durch einen neueren ersetzt oder ist abgelaufen. Fordern Sie auf Ihrer Kontoseite einen neuen an</p>');
    assert.equal((await page('POST', confirm(TAKEN), de)).body, '<p>Ein Benutzer mit dieser E-Mail-Adresse existiert bereits</p>');

    const stop = await page('GET', '/unsubscribe/1.2.monthly.ok', de);
    assert.deepEqual([stop.lang, stop.title], ['de', 'E-Mail-Berichte']);
    assert.match(stop.body, /<button type="submit">Abbestellen<\/button>/);
    assert.match((await page('POST', '/unsubscribe/1.2.weekly.ok', de)).body, /Sie erhalten den Wochenbericht dieser Website nicht mehr/);
    assert.match((await page('POST', '/unsubscribe/1.2.monthly.ok', de)).body, /Sie erhalten den Monatsbericht dieser Website nicht mehr/);

    const setup = await page('GET', '/setup', de);
    assert.deepEqual([setup.status, setup.lang, setup.title], [404, 'de', 'Einrichtung abgeschlossen']);
    assert.equal(setup.body, '<p>svc ist eingerichtet: Das erste Konto existiert bereits. Gehen Sie stattdessen zur <a href="/login">Anmeldung</a>.</p>');
  });

  test('French and Spanish: each page in that language, its <html lang> saying so', async () => {
    for (const [language, words] of [['fr', plainPageWords('fr')], ['es-MX', plainPageWords('es')]] as const) {
      const lang = language.slice(0, 2);
      const question = await page('GET', confirm(GOOD), language);
      assert.deepEqual([question.lang, question.title], [lang, words.confirmEmail.title]);
      assert.ok(question.body.includes(`<button type="submit">${words.confirmEmail.confirm}</button>`), question.body);
      const used = await page('POST', confirm(USED), language);
      assert.equal(used.lang, lang);
      assert.doesNotMatch(used.body, /this confirmation link/, 'the refusal translated');
      const stopped = await page('POST', '/unsubscribe/1.2.monthly.ok', language);
      assert.deepEqual([stopped.lang, stopped.body], [lang, `<p role="status">${words.unsubscribe.done.monthly}</p>`]);
      const setup = await page('GET', '/setup', language);
      assert.equal(setup.lang, lang);
      assert.ok(setup.body.includes(`<a href="/login">${words.setupDone.signIn}</a>`), setup.body);
    }
    assert.match((await page('POST', '/unsubscribe/1.2.weekly.ok', 'fr')).body, /rapport hebdomadaire/);
    assert.match((await page('POST', '/unsubscribe/1.2.weekly.ok', 'es')).body, /informe semanal/);
  });

  test('every language has the English entries, each with the English placeholders', () => {
    const entries = (section: object, prefix = ''): Array<[string, string]> =>
      Object.entries(section).flatMap(([key, value]) => (typeof value === 'string' ? [[prefix + key, value] as [string, string]] : entries(value as object, `${prefix}${key}.`)));
    const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
    const english = entries(plainPageWords('en'));
    for (const language of LANGUAGES) {
      const translated = new Map(entries(plainPageWords(language)));
      assert.deepEqual([...translated.keys()].sort(), english.map(([key]) => key).sort(), `${language}: the entries`);
      for (const [key, text] of english) assert.deepEqual(placeholders(translated.get(key)!), placeholders(text), `${language}: ${key}`);
    }
  });
});
