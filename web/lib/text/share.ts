// The catalogue's `share` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { share } from '../../../src/core/messages/en/share.js';

export const shareText = section('share', share);
