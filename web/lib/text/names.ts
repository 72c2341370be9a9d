// The catalogue's `names` section in the page's language (../i18n.ts): a module of its own, so that
// only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { names } from '../../../src/core/messages/en/common.js';

export const namesText = section('names', names);
