// The catalogue's `journeys` section in Spanish: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const journeys: WebCatalogue['journeys'] = {};
