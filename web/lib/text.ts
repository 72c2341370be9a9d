// The catalogue's sections as the pages read them, in the page's language (./i18n.ts). Marked pure,
// so that a page bundles only the English sections it uses.
import { section } from './i18n.js';
import { common } from '../../src/core/messages/en/common.js';
import { dashboard } from '../../src/core/messages/en/dashboard.js';
import { account } from '../../src/core/messages/en/account.js';

export const commonText = /* @__PURE__ */ section('common', common);
export const dashboardText = /* @__PURE__ */ section('dashboard', dashboard);
export const accountText = /* @__PURE__ */ section('account', account);
