// Body of a scan worker thread: runs the scanner on one archive at a time, off the request
// path, and posts the ScanResult (or the error) back to the pool.
import { parentPort } from 'node:worker_threads';
import { scanArchive } from '@sentinelle/scanner';
import type { ScanTask, ScanWorkerReply } from './scanTask.js';

if (!parentPort) throw new Error('scanWorker must run in a worker thread');
const port = parentPort;

/**
 * Test-only knob, inert unless set: holds each scan this many ms before scanning, so the
 * restart tests can kill a server while a scan is surely running.
 */
const testDelayMs = Number(process.env.SENTINELLE_TEST_SCAN_DELAY_MS ?? 0) || 0;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

port.on('message', (task: ScanTask) => {
  (testDelayMs > 0 ? pause(testDelayMs) : Promise.resolve())
    .then(() =>
      scanArchive(task.archivePath, {
        scanId: task.scanId,
        filename: task.filename,
        language: task.language,
        scanType: task.scanType,
        // Cancelling terminates the whole thread, so there is nothing to poll here.
        isCancelled: () => false,
      }),
    )
    .then((result) =>
      port.postMessage({ scanId: task.scanId, ok: true, result } satisfies ScanWorkerReply),
    )
    .catch((error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      const raw = (e as Error & { code?: unknown }).code;
      const code = typeof raw === 'string' ? raw : undefined;
      port.postMessage({
        scanId: task.scanId,
        ok: false,
        error: { name: e.name, code, message: e.message },
      } satisfies ScanWorkerReply);
    });
});
