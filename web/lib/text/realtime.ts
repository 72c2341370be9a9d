// The catalogue's `realtime` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { realtime } from '../../../src/core/messages/en/realtime.js';

export const realtimeText = section('realtime', realtime);
