// One test command: CI (`.ci/run`) runs exactly the command the README gives, and the README names
// every system package and server that `npm test` sets up (scripts/system-packages.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SYSTEM_PACKAGES, TEST_SERVERS } from '../../scripts/system-packages.mjs';

const readme = readFileSync('README.md', 'utf8');

/** The README's test command: the line of its "Two commands" block that runs `npm test`. */
function readmeTestCommand(): string {
  const block = /## Two commands\s+```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'the README has a "Two commands" block');
  const lines = block.split('\n').map((line) => line.replace(/#.*/, '').trim()).filter((line) => line.includes('npm test'));
  assert.equal(lines.length, 1, block);
  return lines[0]!;
}

test(".ci/run runs exactly the README's test command, and nothing else", () => {
  const commands = readFileSync('.ci/run', 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('set ') && !line.startsWith('cd '));
  assert.deepEqual(commands, [readmeTestCommand()]);
});

test('the README names every system package and server the tests need', () => {
  for (const { package: name } of SYSTEM_PACKAGES) assert.ok(readme.includes(`\`${name}\``), `README names the package ${name}`);
  for (const { name, port } of TEST_SERVERS) assert.match(readme, new RegExp(`${name} server on 127\\.0\\.0\\.1:${port}`), `README names the ${name} server`);
});
