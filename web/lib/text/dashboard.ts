// The catalogue's `dashboard` section in the page's language (../i18n.ts): a module of its own, so that
// only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { dashboard } from '../../../src/core/messages/en/dashboard.js';

export const dashboardText = section('dashboard', dashboard);
