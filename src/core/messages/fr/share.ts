// The catalogue's `share` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const share: WebCatalogue['share'] = {};
