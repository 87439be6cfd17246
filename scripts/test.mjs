// `npm test`: installs the system tools the tests need, builds every workspace, runs all
// unit and integration tests, then the end-to-end tests in Chromium against the built
// server, and ends with the line `N passed, N failed` that CI reads.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemTools } from './ensure-system-tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });

function run(cmd, args) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  return r.status ?? 1;
}

/** Reads a Vitest JSON report; a missing or unreadable one counts as one failure. */
function countsOf(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: report.numPassedTests ?? 0,
    failed:
      (report.numFailedTests ?? 0) + (report.success === false && !report.numFailedTests ? 1 : 0),
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

ensureSystemTools();

const suites = [];
if (run('npm', ['run', 'build']) !== 0) {
  console.log('\nBuild failed.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

for (const [name, config] of [
  ['unit', 'vitest.config.ts'],
  ['e2e', 'apps/web/e2e/vitest.e2e.config.ts'],
]) {
  const out = join(results, `vitest-${name}.json`);
  rmSync(out, { force: true });
  run('npx', [
    'vitest',
    'run',
    '--config',
    config,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  suites.push({ name, ...countsOf(out) });
}

const total = suites.reduce(
  (t, s) => ({
    passed: t.passed + s.passed,
    failed: t.failed + s.failed,
    skipped: t.skipped + s.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
console.log('');
for (const s of suites)
  console.log(`${s.name}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
console.log(
  `${total.passed} passed, ${total.failed} failed` +
    (total.skipped ? `, ${total.skipped} skipped` : ''),
);
process.exit(total.failed > 0 ? 1 : 0);
