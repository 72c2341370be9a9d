// The catalogue's `account` section in the page's language (../i18n.ts): a module of its own, so that
// only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { account } from '../../../src/core/messages/en/account.js';

export const accountText = section('account', account);
