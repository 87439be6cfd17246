// Points `@sentinelle/contracts` at its TypeScript sources so the browser bundle and the
// component tests never depend on a stale dist/ of the contracts package.
import { fileURLToPath } from 'node:url';

export const contractsAlias = {
  '@sentinelle/contracts': fileURLToPath(
    new URL('../../packages/contracts/src/index.ts', import.meta.url),
  ),
};
