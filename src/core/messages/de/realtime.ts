// The catalogue's `realtime` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const realtime: WebCatalogue['realtime'] = {};
