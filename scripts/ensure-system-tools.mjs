// Installs the system tools the tests need when they are missing: Debian's Chromium for the
// end-to-end tests (never a browser downloaded by a test tool) and ripgrep for the scanner
// benchmark's comparison. Runs apt-get only when something is absent.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = [
  { pkg: 'chromium', bin: '/usr/bin/chromium' },
  { pkg: 'ripgrep', bin: '/usr/bin/rg' },
];

export function ensureSystemTools() {
  const missing = wanted.filter((w) => !existsSync(w.bin)).map((w) => w.pkg);
  if (missing.length === 0) return;
  const asRoot = process.getuid?.() === 0;
  const apt = (args) =>
    execFileSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['apt-get', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  console.log(`Installing from apt: ${missing.join(', ')}`);
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', ...missing]);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureSystemTools();
