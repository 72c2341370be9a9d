// The catalogue's `singleSignOn` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { singleSignOn } from '../../../src/core/messages/en/single-sign-on.js';

export const singleSignOnText = section('singleSignOn', singleSignOn);
