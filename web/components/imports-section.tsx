// A site's Imports and export section, which its settings page loads when it is first opened: the
// section is seldom used, and the largest of the page.
import '../lib/on-demand-base.js';

export { Imports } from './imports.js';
