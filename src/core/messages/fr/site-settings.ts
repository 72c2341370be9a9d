// The catalogue's `siteSettings` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const siteSettings: WebCatalogue['siteSettings'] = {};
