import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SCAN_THREAD_RESOURCE_LIMITS } from '@sentinelle/scanner';
import { WorkerPool } from './workerPool.js';

describe('WorkerPool', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('starts its threads with the scanner’s scan-thread limits', async () => {
    // A stand-in worker body that answers with the limits its thread was started with.
    const dir = await mkdtemp(join(tmpdir(), 'sentinelle-pool-'));
    dirs.push(dir);
    const entry = join(dir, 'limits.mjs');
    await writeFile(
      entry,
      `import { parentPort, resourceLimits } from 'node:worker_threads';
parentPort.on('message', (task) => parentPort.postMessage({ scanId: task.scanId, ok: true, result: resourceLimits }));
`,
    );
    const pool = new WorkerPool(pathToFileURL(entry));
    try {
      const outcome = await pool.run(
        { scanId: 's1', archivePath: '-', filename: 'a.zip', language: 'en', scanType: 'standard' },
        10_000,
      ).outcome;
      expect(outcome.kind).toBe('result');
      const limits = (outcome as { result: { maxYoungGenerationSizeMb: number } }).result;
      expect(limits.maxYoungGenerationSizeMb).toBe(
        SCAN_THREAD_RESOURCE_LIMITS.maxYoungGenerationSizeMb,
      );
    } finally {
      await pool.close();
    }
  });
});
