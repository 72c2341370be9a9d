// The catalogue's `orgSettings` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const orgSettings: WebCatalogue['orgSettings'] = {};
