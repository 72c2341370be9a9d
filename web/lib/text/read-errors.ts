// The catalogue's `readErrors` section in the page's language (../i18n.ts): a module of its own, so that
// only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { readErrors } from '../../../src/core/messages/en/read-errors.js';

export const readErrorsText = section('readErrors', readErrors);
