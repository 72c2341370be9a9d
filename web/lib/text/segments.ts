// The catalogue's `segments` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { segments } from '../../../src/core/messages/en/segments.js';

export const segmentsText = section('segments', segments);
