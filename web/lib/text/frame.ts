// The catalogue's `frame` section in the page's language (../i18n.ts): a module of its own, so that
// only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { frame } from '../../../src/core/messages/en/common.js';

export const frameText = section('frame', frame);
