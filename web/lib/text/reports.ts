// The catalogue's `reports` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { reports } from '../../../src/core/messages/en/reports.js';

export const reportsText = section('reports', reports);
