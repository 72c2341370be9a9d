// The catalogue's `signIn` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const signIn: WebCatalogue['signIn'] = {};
