// The catalogue's `orgSettings` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { orgSettings } from '../../../src/core/messages/en/org-settings.js';

export const orgSettingsText = section('orgSettings', orgSettings);
