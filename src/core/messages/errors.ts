// The error catalogue's messages in the language of the person who reads them (the dashboard's
// requests to /app/v1): a translation of the refusal's template, filled with its parameters.
// English is ERRORS itself; the translations stay on the server.
import { fillTemplate, type ApiError, type ErrorCode, type MessageParams } from '../errors.js';
import { isRole } from '../vocabulary.js';
import type { ErrorCatalogue } from './catalogue.js';
import type { Language } from './language.js';
import de from './de/errors.js';
import fr from './fr/errors.js';
import es from './es/errors.js';
import { mailWords } from './server.js';

const TRANSLATIONS: Record<Exclude<Language, 'en'>, ErrorCatalogue> = { de, fr, es };

/** The message of `refusal` in `language`: its English one, byte for byte, for English. */
export function messageIn(refusal: ApiError, language: Language): string {
  if (language === 'en') return refusal.message;
  const templates: Record<string, string> = TRANSLATIONS[language][refusal.code as ErrorCode];
  return fillTemplate(templates[refusal.messageName]!, wordedParams(refusal.params, language));
}

/** The parameters that name a role (the catalogue's `role` template); any other is a client's or the server's text, sent as is. */
const ROLE_PARAMS: ReadonlySet<string> = new Set(['role', 'needed']);

/** A refusal's parameters with its roles named as `language` names them; the rest as sent. */
function wordedParams(params: MessageParams, language: Language): MessageParams {
  const { roles } = mailWords(language);
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, ROLE_PARAMS.has(name) && isRole(value) ? roles[value] : value]));
}
