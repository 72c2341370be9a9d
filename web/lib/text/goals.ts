// The catalogue's `goals` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { goals } from '../../../src/core/messages/en/goals.js';

export const goalsText = section('goals', goals);
