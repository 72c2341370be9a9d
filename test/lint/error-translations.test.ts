// The error catalogue's translations (src/core/messages/{de,fr,es}/errors.ts) against ERRORS: every
// template translated, with exactly its English placeholders. The type check refuses a translation
// that differs (the two `@ts-expect-error` below prove it does); this test reads the objects as they
// run, in case a cast got one past it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERRORS } from '../../src/core/errors.js';
import type { ErrorCatalogue, SamePlaceholders } from '../../src/core/messages/catalogue.js';
import de from '../../src/core/messages/de/errors.js';
import fr from '../../src/core/messages/fr/errors.js';
import es from '../../src/core/messages/es/errors.js';

const placeholders = (template: string): string[] => [...new Set(template.match(/\{\w+\}/g) ?? [])].sort();

test('every template of the error catalogue is translated into German, French and Spanish, with its placeholders', () => {
  for (const [language, translation] of Object.entries({ de, fr, es }) as Array<[string, ErrorCatalogue]>) {
    assert.deepEqual(Object.keys(translation).sort(), Object.keys(ERRORS).sort(), `${language}: the codes`);
    for (const [code, { messages }] of Object.entries(ERRORS)) {
      const translated: Record<string, string> = translation[code as keyof ErrorCatalogue];
      assert.deepEqual(Object.keys(translated).sort(), Object.keys(messages).sort(), `${language}: the templates of ${code}`);
      for (const [name, english] of Object.entries(messages as Record<string, string>)) {
        const text = translated[name]!;
        assert.deepEqual(placeholders(text), placeholders(english), `${language} ${code}.${name}: the placeholders of "${english}"`);
        assert.notEqual(text, english, `${language} ${code}.${name} is translated`);
      }
    }
  }
});

// A template whose placeholders differ from its English one's, and a code missing templates, fail the type check.
const renamed = { ...de, NOT_FOUND: { ...de.NOT_FOUND, unknownPath: 'Keine Route {pfad}' } } as const;
// @ts-expect-error: `{pfad}` is not the English template's `{path}`
void (renamed satisfies SamePlaceholders<typeof renamed>);
// @ts-expect-error: UNAUTHORIZED without its other templates
void ({ ...de, UNAUTHORIZED: { credentials: de.UNAUTHORIZED.credentials } } satisfies ErrorCatalogue);
