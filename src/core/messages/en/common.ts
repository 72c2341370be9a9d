// The English catalogue's words every page and mail shares: the names of the vocabulary's metrics,
// dimensions, panels, periods and comparisons (keyed by the vocabulary's ids), and the frame of
// every page. Two sections, so that a page without figures (sign-in) bundles the frame alone. The
// source of every translation (../catalogue.ts types them from it).
import type { Metric } from '../../metric-registry.js';
import type { Dimension, FilterOperator } from '../../vocabulary.js';

export const names = {
  metrics: {
    visitors: 'Visitors',
    pageviews: 'Pageviews',
    sessions: 'Visits',
    bounceRate: 'Bounce rate',
    avgDuration: 'Visit duration',
    timeOnPage: 'Time on page',
    conversions: 'Conversions',
    conversionRate: 'Conversion rate',
  } satisfies Record<Metric, string>,
  dimensions: {
    page: 'Page',
    entry: 'Entry page',
    exit: 'Exit page',
    referrer: 'Referrer',
    utm_source: 'UTM source',
    utm_medium: 'UTM medium',
    utm_campaign: 'UTM campaign',
    country: 'Country',
    region: 'Region',
    city: 'City',
    browser: 'Browser',
    os: 'Operating system',
    device: 'Device',
    event: 'Event',
    hostname: 'Hostname',
  } satisfies Record<Dimension, string>,
  noReferrer: 'Direct / None',
  goal: 'Goal',
  goals: 'Goals',
  property: 'Property',
  properties: 'Properties',
  propertyNamed: 'Property {key}',
  /** A device class's key (`desktop`) as shown. */
  devices: { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' } as Record<string, string>,
  geonamesCity: 'GeoNames city {id}',
  operators: { is: 'is', is_not: 'is not', contains: 'contains' } satisfies Record<FilterOperator, string>,
  or: ' or ',
};

/** The frame of every page: navigation, sign-out, loading and the network's failures. */
export const frame = {
  skip: 'Skip to content',
  breadcrumbs: 'Breadcrumbs',
  accountOf: 'Account of {email}',
  signOut: 'Sign out',
  loading: 'Loading…',
  site: 'Site',
  dashboard: 'Dashboard',
  realtime: 'Realtime',
  journeys: 'Journeys',
  goalsAndFunnels: 'Goals and funnels',
  settings: 'Settings',
  cancel: 'Cancel',
  save: 'Save',
  copy: 'Copy',
  copied: 'Copied.',
  networkError: 'Could not reach the server. Check the connection and try again.',
  httpError: 'The server answered {status}. Try again in a moment.',
};
