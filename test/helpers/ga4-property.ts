// A GA4 property's reports for the tests, written in GA4's words (its browser, system and device
// names, `(direct)`, `(not set)`, automatic events): per day, the rows of each report the import asks
// for, whose figures agree with the day's totals, and the Google stand-in serving them to a test
// server (started with it) over HTTPS.
import type { TestServerOptions } from './server.js';
import { testCertificates } from '../../support/test-certificates.js';
import { serviceAccountKeyFile, startGoogleStandIn, type GoogleStandIn, type PropertyData, type StandInRow } from '../../support/google-stand-in.js';

/** Session metrics of a row: users, pageviews, sessions, bounced sessions and seconds in all (GA4 gives rate and average). */
function sessionRow(values: string[], users: number, views: number, sessions: number, bounces: number, seconds: number): StandInRow {
  return { values, metrics: { totalUsers: users, screenPageViews: views, sessions, bounceRate: sessions === 0 ? 0 : bounces / sessions, averageSessionDuration: sessions === 0 ? 0 : seconds / sessions } };
}

/**
 * The day's reports; `k` multiplies every count (a day of k = 1 has 10 users, 30 pageviews, 12
 * sessions, 6 bounces and 600 s). Each day also holds one event whose name svc does not take.
 */
export function ga4Day(k = 1): Record<string, StandInRow[]> {
  const row = (values: string[], users: number, views: number, sessions: number, bounces: number, seconds: number) => sessionRow(values, users * k, views * k, sessions * k, bounces * k, seconds * k);
  return {
    '': [row([], 10, 30, 12, 6, 600)],
    pagePath: [
      { values: ['/'], metrics: { totalUsers: 7 * k, screenPageViews: 14 * k, sessions: 8 * k } },
      { values: ['/pricing'], metrics: { totalUsers: 4 * k, screenPageViews: 10 * k, sessions: 5 * k } },
      { values: ['/blog/a'], metrics: { totalUsers: 3 * k, screenPageViews: 6 * k, sessions: 3 * k } },
    ],
    hostName: [row(['example.com'], 8, 24, 10, 5, 500), row(['Blog.Example.com'], 3, 6, 3, 1, 100)],
    landingPage: [row(['/'], 7, 20, 8, 4, 400), row(['/blog/a'], 2, 8, 3, 2, 150), row(['(not set)'], 1, 2, 1, 0, 50)],
    'sessionSource,sessionMedium,sessionCampaignName': [
      row(['(direct)', '(none)', '(direct)'], 4, 10, 5, 3, 200),
      row(['google', 'organic', '(organic)'], 2, 6, 2, 1, 100),
      row(['www.news.example', 'referral', '(referral)'], 1, 2, 1, 0, 50),
      row(['newsletter', 'email', 'spring, sale'], 3, 12, 4, 2, 250),
    ],
    'countryId,region,city': [
      row(['FR', 'Ile-de-France', 'Paris'], 5, 15, 6, 3, 300),
      row(['DE', 'Bavaria', 'Munich'], 2, 6, 3, 1, 150),
      row(['BR', 'State of Sao Paulo', 'São Paulo'], 2, 6, 2, 1, 100),
      row(['(not set)', '(not set)', '(not set)'], 1, 3, 1, 1, 50),
    ],
    deviceCategory: [row(['desktop'], 6, 20, 7, 3, 400), row(['mobile'], 3, 8, 4, 3, 150), row(['smart tv'], 1, 2, 1, 0, 50)],
    browser: [row(['Chrome'], 5, 15, 6, 3, 300), row(['Android Webview'], 1, 3, 1, 0, 50), row(['Safari'], 3, 9, 4, 2, 200), row(['Safari (in-app)'], 1, 3, 1, 1, 50)],
    operatingSystem: [row(['Macintosh'], 6, 18, 7, 3, 350), row(['Linux'], 2, 6, 2, 1, 100), row(['Chrome OS'], 1, 3, 2, 1, 100), row(['(not set)'], 1, 3, 1, 1, 50)],
    eventName: [
      { values: ['page_view'], metrics: { totalUsers: 10 * k, eventCount: 30 * k } },
      { values: ['session_start'], metrics: { totalUsers: 10 * k, eventCount: 12 * k } },
      { values: ['first_visit'], metrics: { totalUsers: 6 * k, eventCount: 6 * k } },
      { values: ['user_engagement'], metrics: { totalUsers: 8 * k, eventCount: 20 * k } },
      { values: ['scroll'], metrics: { totalUsers: 4 * k, eventCount: 5 * k } },
      { values: ['Sign_Up'], metrics: { totalUsers: 2 * k, eventCount: 3 * k } },
      { values: ['download_pdf'], metrics: { totalUsers: 1 * k, eventCount: 1 * k } },
      { values: ['Ünïcode'], metrics: { totalUsers: 1 * k, eventCount: 1 * k } },
    ],
  };
}

/** A property of `days`, each day's counts multiplied by `scale(day)`. */
export function ga4Property(days: readonly string[], scale = (_day: string) => 1): PropertyData {
  return Object.fromEntries(days.map((day) => [day, ga4Day(scale(day))]));
}

export interface Ga4Fixture {
  google: GoogleStandIn;
  /** The service account's key file, as Google Cloud downloads it. */
  keyFile: Record<string, string>;
  /** What a test server needs to reach the stand-in: the endpoints' variables, the CA, short waits, small pages, short windows. */
  server: Pick<TestServerOptions, 'env' | 'ga4'>;
}

/** The stand-in serving `properties` to the service account it creates. */
export async function startGa4Fixture(properties: Record<string, PropertyData>): Promise<Ga4Fixture> {
  const { file, publicKey } = serviceAccountKeyFile();
  const google = await startGoogleStandIn({ clientEmail: file.client_email!, publicKey, properties });
  return {
    google,
    keyFile: file,
    server: {
      env: { SVC_GOOGLE_TOKEN_URL: google.tokenUrl, SVC_GOOGLE_ANALYTICS_DATA_URL: google.dataUrl },
      ga4: { ca: testCertificates().ca, retryBaseMs: 5, pageRows: 3, windowDays: 2 },
    },
  };
}
