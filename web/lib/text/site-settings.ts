// The catalogue's `siteSettings` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { siteSettings } from '../../../src/core/messages/en/site-settings.js';

export const siteSettingsText = section('siteSettings', siteSettings);
