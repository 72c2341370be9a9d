// The language of what a request makes svc write for a person (a mail sent on request, /app/v1's
// error messages): the
// account's choice when there is one, else the request's Accept-Language, else English.
import type { FastifyRequest } from 'fastify';
import { acceptedLanguages, pickLanguage, type Language } from '../core/messages/language.js';

export function requestLanguage(request: FastifyRequest, chosen: Language | null = null): Language {
  return chosen ?? pickLanguage(acceptedLanguages(request.headers['accept-language']));
}
