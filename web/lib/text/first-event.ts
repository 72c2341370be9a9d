// The catalogue's `firstEvent` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { firstEvent } from '../../../src/core/messages/en/first-event.js';

export const firstEventText = section('firstEvent', firstEvent);
