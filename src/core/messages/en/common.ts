// The English catalogue's words every page and mail shares: the names of the vocabulary's metrics,
// dimensions, panels, periods and comparisons (keyed by the vocabulary's ids), and the frame of
// every page. Two sections, so that a page without figures (sign-in) bundles the frame alone. The
// source of every translation (../catalogue.ts types them from it).
import type { Metric } from '../../metric-registry.js';
import type { Dimension, FilterOperator } from '../../vocabulary.js';

export const names = {
  metricNames: {
    visitors: 'Visitors',
    pageviews: 'Pageviews',
    sessions: 'Visits',
    bounceRate: 'Bounce rate',
    avgDuration: 'Visit duration',
    timeOnPage: 'Time on page',
    conversions: 'Conversions',
    conversionRate: 'Conversion rate',
  } satisfies Record<Metric, string>,
  dimensionNames: {
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
  goalWord: 'Goal',
  goalsWord: 'Goals',
  propertyWord: 'Property',
  propertiesWord: 'Properties',
  propertyNamed: 'Property {key}',
  /** A device class's key (`desktop`) as shown. */
  deviceNames: { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' } as Record<string, string>,
  geonamesCity: 'GeoNames city {id}',
  operatorWords: { is: 'is', is_not: 'is not', contains: 'contains' } satisfies Record<FilterOperator, string>,
  orWord: ' or ',
};

/** The frame of every page: navigation, sign-out, loading and the network's failures. */
export const frame = {
  skipLink: 'Skip to content',
  breadcrumbsNav: 'Breadcrumbs',
  accountOf: 'Account of {email}',
  signOutButton: 'Sign out',
  loadingNote: 'Loading…',
  siteTabs: 'Site',
  dashboardTab: 'Dashboard',
  realtimeTab: 'Realtime',
  journeysTab: 'Journeys',
  goalsAndFunnels: 'Goals and funnels',
  settingsTab: 'Settings',
  cancelButton: 'Cancel',
  saveButton: 'Save',
  copyButton: 'Copy',
  copiedNote: 'Copied.',
  networkError: 'Could not reach the server. Check the connection and try again.',
  httpError: 'The server answered {status}. Try again in a moment.',
};
