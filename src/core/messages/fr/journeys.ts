// The catalogue's `journeys` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const journeys: WebCatalogue['journeys'] = {};
