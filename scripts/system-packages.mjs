// The system packages the tests need besides Node (Debian names), with the file each provides.
// Run directly (the first step of `npm test`), it installs the missing ones with apt-get when
// running as root on Debian, and otherwise stops with the command to run. A server that joins the
// tests joins this list.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SYSTEM_PACKAGES = [
  { package: 'chromium', file: '/usr/bin/chromium', for: 'the tracker tests in a real browser' },
  { package: 'nginx-light', file: '/usr/sbin/nginx', for: 'the first-party proxy test' },
  { package: 'openssl', file: '/usr/bin/openssl', for: 'the test certificate authority of the webhook tests' },
];

/** The packages whose file is missing. */
export function missingPackages(exists = existsSync) {
  return SYSTEM_PACKAGES.filter((p) => !exists(p.file));
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) {
    console.error(`system packages: \`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}

function main() {
  const missing = missingPackages();
  if (missing.length === 0) return;
  const names = missing.map((p) => p.package);
  const install = ['install', '-y', '-q', '--no-install-recommends', ...names];
  const list = missing.map((p) => `  ${p.package} (${p.file}): ${p.for}`).join('\n');
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.error(`the tests need these system packages, which are missing:\n${list}\ninstall them (on Debian: sudo apt-get ${install.join(' ')}) and run the tests again`);
    process.exit(1);
  }
  console.error(`installing the system packages the tests need:\n${list}`);
  run('apt-get', ['update', '-q']);
  run('apt-get', install);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
