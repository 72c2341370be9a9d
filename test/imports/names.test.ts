// Another tool's browser, system and device names mapped to svc's: a listed name to its family, an
// absent one to `(none)`, any other name kept as it is, even one that names a member of an object's
// prototype (an export is hostile input).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NONE_KEY } from '../../src/core/vocabulary.js';
import { BROWSER_NAMES, DEVICE_NAMES, mappedName, OS_NAMES } from '../../src/imports/names.js';

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
