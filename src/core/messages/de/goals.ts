// The catalogue's `goals` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const goals: WebCatalogue['goals'] = {};
