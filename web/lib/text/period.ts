// The catalogue's `period` section in the page's language (../i18n.ts): a module of its own, so that
// only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { period } from '../../../src/core/messages/en/period.js';

export const periodText = section('period', period);
