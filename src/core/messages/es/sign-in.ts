// The catalogue's `signIn` section in Spanish: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const signIn: WebCatalogue['signIn'] = {};
