#!/usr/bin/env node
// Entry of the `sentinelle` command: runs the built CLI (npm run build first).
import { main } from '../dist/cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(
      `sentinelle: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 3;
  },
);
