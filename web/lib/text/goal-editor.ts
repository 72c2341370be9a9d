// The catalogue's `goalEditor` section in the page's language (../i18n.ts): a module of its own, so
// that only the pages that use it bundle its English.
import { section } from '../i18n.js';
import { goalEditor } from '../../../src/core/messages/en/goal-editor.js';

export const goalEditorText = section('goalEditor', goalEditor);
