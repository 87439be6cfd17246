// Where the labelled sample addons live for the tests: ../shared/samples beside the repository
// (CI places them there). Test-only: kept out of the scanner's build.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const SAMPLES_ROOT = join(repoRoot, '..', 'shared', 'samples');
