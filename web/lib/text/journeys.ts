// The catalogue's `journeys` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { journeys } from '../../../src/core/messages/en/journeys.js';

export const journeysText = section('journeys', journeys);
