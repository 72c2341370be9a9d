// The English catalogue's words of a site's settings page: shared links, alert rules, imports, time zone.
export const siteSettings = {};
