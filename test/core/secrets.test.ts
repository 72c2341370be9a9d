// tokensEqual: the one comparison of a presented secret with the expected one.
import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { tokensEqual } from '../../src/core/secrets.js';

const EXPECTED = 'admin-token-0123456789abcdef';

describe('tokensEqual', () => {
  it('is true for the same secret only, whatever the given length', () => {
    for (const [given, expected, equal] of [
      [EXPECTED, EXPECTED, true],
      [EXPECTED.slice(0, -1), EXPECTED, false],
      [EXPECTED + 'x', EXPECTED, false],
      [EXPECTED.replace(/.$/, 'g'), EXPECTED, false],
      ['', EXPECTED, false],
      ['x'.repeat(10_000), EXPECTED, false],
      ['é', 'é'.normalize('NFD'), false],
      ['', '', false],
    ] as const) {
      assert.equal(tokensEqual(given, expected), equal, `${JSON.stringify(given.slice(0, 40))} vs ${JSON.stringify(expected)}`);
    }
  });

  it('compares two 32-byte digests in constant time, never the secrets themselves', () => {
    const compare = mock.method(crypto, 'timingSafeEqual');
    syncBuiltinESMExports();
    try {
      for (const given of ['', 'short', EXPECTED, EXPECTED + 'longer']) tokensEqual(given, EXPECTED);
      assert.equal(compare.mock.callCount(), 4);
      for (const call of compare.mock.calls) {
        assert.deepEqual(call.arguments.map((side) => (side as Buffer).length), [32, 32]);
      }
    } finally {
      compare.mock.restore();
      syncBuiltinESMExports();
    }
  });
});
