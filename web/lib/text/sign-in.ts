// The catalogue's `signIn` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { signIn } from '../../../src/core/messages/en/sign-in.js';

export const signInText = section('signIn', signIn);
