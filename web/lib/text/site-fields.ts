// The catalogue's `siteFields` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { siteFields } from '../../../src/core/messages/en/site-fields.js';

export const siteFieldsText = section('siteFields', siteFields);
