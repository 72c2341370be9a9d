import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashNeedsUpgrade, hashPassword, verifyAgainstDummy, verifyPassword } from '../../src/accounts/passwords.js';

test('scrypt hashes (N = 2^17, r = 8, p = 1) name their parameters, are salted, and verify only their password', async () => {
  const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
  assert.match(a, /^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
  assert.equal(hashNeedsUpgrade(a), false);
  assert.notEqual(a, b, 'a random salt per hash');
  assert.equal(await verifyPassword('correct horse battery', a), true);
  assert.equal(await verifyPassword('correct horse batterY', a), false);
  assert.equal(await verifyPassword('correct horse battery', 'plain text'), false);
  assert.equal(await verifyAgainstDummy('correct horse battery'), false);
});

test('a hash made with other parameters still verifies (they are read from the hash)', async () => {
  const lighter = 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA==$' + (await import('node:crypto')).scryptSync('pw of ten chars', Buffer.from('saltsaltsaltsalt'), 32, { N: 1024, r: 8, p: 1 }).toString('base64');
  assert.equal(await verifyPassword('pw of ten chars', lighter), true);
  assert.equal(hashNeedsUpgrade(lighter), true, 'made again at the next sign-in');
});
