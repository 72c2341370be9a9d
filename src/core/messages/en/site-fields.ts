// The English catalogue's words of the fields a site's settings share with the Add site form: its
// time zone and how long it keeps single events. A section of its own, so that the organisation's
// page bundles these few words and not the whole of a site's settings.
export const siteFields = {
  timeZone: 'Time zone',
  timeZoneHint: 'Type to search, for example Europe/Paris.',
  unlistedZone: 'Not in the list of zones: the service checks it when you save.',
  keepEvents: 'Keep single events',
  // The disk figure is bench/raw-disk's (npm run bench:raw-disk): a year of bench/query's traffic on
  // DuckDB, measured at a fortieth of it and scaled (docs/operations.md).
  keepEventsHint:
    'Filtered views (several filters at once, or a filter beside another breakdown) reach back this far, older days answer one filter at a time; at 20 000 pageviews a day, a year kept 13 months takes about 540 MB more disk than kept 30 days.',
};
