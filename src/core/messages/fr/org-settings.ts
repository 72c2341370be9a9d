// The catalogue's `orgSettings` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const orgSettings: WebCatalogue['orgSettings'] = {};
