// The catalogue's `siteSettings` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const siteSettings: WebCatalogue['siteSettings'] = {};
