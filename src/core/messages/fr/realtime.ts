// The catalogue's `realtime` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const realtime: WebCatalogue['realtime'] = {};
