// Another tool's browser, system and device names mapped to svc's: a listed name to its family, an
// absent one to `(none)`, any other name kept as it is, even one that names a member of an object's
// prototype (an export is hostile input); and svc's families written back with Plausible's own names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NONE_KEY } from '../../src/core/vocabulary.js';
import { BROWSER_NAMES, DEVICE_NAMES, mappedName, OS_NAMES, PLAUSIBLE_BROWSER_NAMES, PLAUSIBLE_DEVICE_NAMES, PLAUSIBLE_OS_NAMES, plausibleName } from '../../src/imports/names.js';
import { UMAMI_BROWSERS, UMAMI_SYSTEMS } from '../../src/imports/umami.js';
import { BROWSERS, OSES } from '../../src/ingest/user-agent.js';

test('names map to svc\'s families, absent ones to (none), others as they are', () => {
  const cases: Array<[Readonly<Record<string, string>>, string, string]> = [
    [OS_NAMES, 'Mac', 'macOS'],
    [OS_NAMES, ' GNU/Linux ', 'Linux'],
    [DEVICE_NAMES, 'Laptop', 'desktop'],
    [BROWSER_NAMES, '(not set)', NONE_KEY],
    [BROWSER_NAMES, '', NONE_KEY],
    [BROWSER_NAMES, 'Netscape', 'Netscape'],
    [BROWSER_NAMES, 'constructor', 'constructor'],
    [OS_NAMES, '__proto__', '__proto__'],
    [DEVICE_NAMES, 'toString', 'toString'],
  ];
  for (const [table, name, expected] of cases) assert.equal(mappedName(table, name), expected, name);
});

// Plausible's own name of each family svc's parser gives (Plausible's dashboard and export write
// these): the export writes exactly it, and the import reads it back to the family.
const PLAUSIBLE_BROWSERS: Record<string, string> = {
  Safari: 'Safari',
  Chrome: 'Chrome',
  Chromium: 'Chromium',
  Firefox: 'Firefox',
  Edge: 'Microsoft Edge',
  Opera: 'Opera',
  'Samsung Internet': 'Samsung Browser',
  Vivaldi: 'Vivaldi',
  Yandex: 'Yandex Browser',
  Brave: 'Brave',
  DuckDuckGo: 'DuckDuckGo Privacy Browser',
  'Internet Explorer': 'Internet Explorer',
  'UC Browser': 'UC Browser',
};
const PLAUSIBLE_SYSTEMS: Record<string, string> = {
  Windows: 'Windows',
  macOS: 'Mac',
  iOS: 'iOS',
  Android: 'Android',
  ChromeOS: 'Chrome OS',
  Linux: 'GNU/Linux',
  FreeBSD: 'FreeBSD',
  OpenBSD: 'OpenBSD',
};

const families = (table: Readonly<Record<string, string | null>>) => [...new Set(Object.values(table).filter((v): v is string => v !== null))].sort();

test('the export writes each family svc recognises as Plausible names it, and the import reads it back', () => {
  assert.deepEqual(Object.keys(PLAUSIBLE_BROWSERS).sort(), families(BROWSERS), 'every browser family of the parser has its Plausible name here');
  assert.deepEqual(Object.keys(PLAUSIBLE_SYSTEMS).sort(), families(OSES), 'every system family of the parser has its Plausible name here');
  const sides: Array<[Record<string, string>, Readonly<Record<string, string>>, Readonly<Record<string, string>>]> = [
    [PLAUSIBLE_BROWSERS, PLAUSIBLE_BROWSER_NAMES, BROWSER_NAMES],
    [PLAUSIBLE_SYSTEMS, PLAUSIBLE_OS_NAMES, OS_NAMES],
    [{ desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' }, PLAUSIBLE_DEVICE_NAMES, DEVICE_NAMES],
  ];
  for (const [expected, exportTable, importTable] of sides) {
    for (const [family, theirs] of Object.entries(expected)) {
      assert.equal(plausibleName(exportTable, family), theirs, `${family} is exported as Plausible's ${theirs}`);
      assert.equal(mappedName(importTable, theirs), family, `Plausible's ${theirs} is imported as ${family}`);
    }
    // Every alias the import reads names a family that the export writes as a name read back to it.
    for (const [alias, family] of Object.entries(importTable)) {
      assert.equal(mappedName(importTable, plausibleName(exportTable, family)), family, `${alias} → ${family} → back`);
    }
  }
  // The families other tools' imports give (Umami's words) go out and come back as they are.
  for (const family of families(UMAMI_BROWSERS)) assert.equal(mappedName(BROWSER_NAMES, plausibleName(PLAUSIBLE_BROWSER_NAMES, family)), family);
  for (const family of families(UMAMI_SYSTEMS)) assert.equal(mappedName(OS_NAMES, plausibleName(PLAUSIBLE_OS_NAMES, family)), family);
  assert.equal(plausibleName(PLAUSIBLE_BROWSER_NAMES, NONE_KEY), '');
  assert.equal(plausibleName(PLAUSIBLE_OS_NAMES, 'constructor'), 'constructor');
});
