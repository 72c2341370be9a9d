// Long reads per reader: at most `limit` at once, the next ones wait in order up to a bound, past it
// they are refused at once; a slot given back twice counts once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PerKeySlots } from '../../src/core/per-key-slots.js';

test('a key runs at most `limit` tasks; the next wait in order up to `maxWaiting`; past that they are refused', async () => {
  const slots = new PerKeySlots(2, 2);
  const first = await slots.take('key:1');
  const second = await slots.take('key:1');
  assert.ok(first && second);
  const order: string[] = [];
  const third = slots.take('key:1').then((release) => (order.push('third'), release));
  const fourth = slots.take('key:1').then((release) => (order.push('fourth'), release));
  assert.deepEqual(slots.state('key:1'), { held: 2, waiting: 2 });
  assert.equal(await slots.take('key:1'), null, 'a fifth, with two waiting already, is refused at once');
  assert.ok(await slots.take('user:1'), 'another reader has slots of its own');

  first();
  first();
  const thirdRelease = await third;
  assert.deepEqual(order, ['third'], 'giving back twice frees one slot');
  assert.deepEqual(slots.state('key:1'), { held: 2, waiting: 1 });
  second();
  const fourthRelease = await fourth;
  assert.deepEqual(order, ['third', 'fourth']);
  thirdRelease!();
  fourthRelease!();
  assert.deepEqual(slots.state('key:1'), { held: 0, waiting: 0 }, 'an idle key keeps nothing');
});
