// The embedded scan queue: the scans table is the queue (status queued → running → ended),
// so a restart resumes it. Up to `size` scans run at once in the worker pool, each within
// the scanner's time budget.
import type { FastifyBaseLogger } from 'fastify';
import { scanResultSchema } from '@sentinelle/contracts';
import type { Db } from '../db/database.js';
import {
  claimNextQueued,
  completeScan,
  failScan,
  requeueInterrupted,
  requeueScans,
  type ScanRow,
} from '../services/scans.js';
import { WorkerPool, type RunningTask, type ScanOutcome } from './workerPool.js';

export interface ScanQueueOptions {
  size: number;
  timeoutMs: number;
  workerEntry?: URL;
  /** The app's clock (Date.now by default): stamps claims, results and failures. */
  clock?: () => number;
}

export class ScanQueue {
  private readonly pool: WorkerPool;
  private readonly running = new Map<string, RunningTask>();
  private readonly finished = new Set<Promise<void>>();
  private claiming = false;
  private claimAgain = false;
  private closed = false;
  private draining = false;
  private readonly clock: () => number;

  constructor(
    private readonly db: Db,
    private readonly options: ScanQueueOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.pool = new WorkerPool(options.workerEntry, options.size);
    this.clock = options.clock ?? Date.now;
  }

  /** Puts interrupted scans back in line and starts working through the queue. */
  async start(): Promise<void> {
    const requeued = await requeueInterrupted(this.db);
    if (requeued > 0)
      this.log.info({ requeued }, 'scans interrupted by a restart are queued again');
    await this.kick();
  }

  /** Fills free worker slots with queued scans. Safe to call at any time, from anywhere. */
  async kick(): Promise<void> {
    if (this.closed || this.draining) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = true;
    try {
      do {
        this.claimAgain = false;
        while (!this.closed && !this.draining && this.running.size < this.options.size) {
          const scan = await claimNextQueued(this.db, this.clock());
          if (!scan) break;
          this.run(scan);
        }
      } while (this.claimAgain && !this.closed && !this.draining);
    } finally {
      this.claiming = false;
    }
  }

  /** Stops the worker of a scan the member cancelled; its result, if any, is discarded. */
  abort(scanId: string): void {
    this.running.get(scanId)?.abort();
  }

  get activeCount(): number {
    return this.running.size;
  }

  private run(scan: ScanRow): void {
    const task = this.pool.run(
      {
        scanId: scan.id,
        archivePath: scan.archive_path,
        filename: scan.filename,
        language: scan.language,
        scanType: scan.scan_type,
      },
      this.options.timeoutMs,
    );
    this.running.set(scan.id, task);
    const done = task.outcome
      .then((outcome) => this.record(scan, outcome))
      .catch((error: unknown) =>
        this.log.error({ err: error, scanId: scan.id }, 'could not record a scan outcome'),
      )
      .finally(() => {
        this.running.delete(scan.id);
        this.finished.delete(done);
        void this.kick();
      });
    this.finished.add(done);
  }

  private async record(scan: ScanRow, outcome: ScanOutcome): Promise<void> {
    switch (outcome.kind) {
      case 'result': {
        const parsed = scanResultSchema.safeParse(outcome.result);
        if (!parsed.success) {
          this.log.error(
            { scanId: scan.id, issues: parsed.error.issues.slice(0, 5) },
            'scanner returned an invalid result',
          );
          await failScan(
            this.db,
            scan.id,
            'analysis_failed',
            'the scanner returned an invalid result',
            this.clock(),
          );
          return;
        }
        await completeScan(
          this.db,
          scan.id,
          { ...parsed.data, scan_id: scan.id, filename: scan.filename },
          this.clock(),
        );
        return;
      }
      case 'error': {
        const unusable = outcome.name === 'UnusableArchiveError';
        await failScan(
          this.db,
          scan.id,
          unusable ? 'archive_corrupt' : 'analysis_failed',
          outcome.message,
          this.clock(),
        );
        if (!unusable) this.log.warn({ scanId: scan.id, error: outcome }, 'scan failed');
        return;
      }
      case 'timeout':
        await failScan(
          this.db,
          scan.id,
          'analysis_timed_out',
          `over ${this.options.timeoutMs} ms`,
          this.clock(),
        );
        return;
      case 'crashed':
        this.log.error({ scanId: scan.id, message: outcome.message }, 'scan worker crashed');
        await failScan(this.db, scan.id, 'analysis_failed', outcome.message, this.clock());
        return;
      case 'aborted':
        // Cancelled: the cancel already marked and refunded the scan. Shut down: close()
        // puts the scan back in the queue.
        return;
    }
  }

  /**
   * Graceful shutdown, first half: stops taking new scans and lets the running ones finish for
   * up to `graceMs`. Returns how many are still running (close() puts those back in the queue).
   */
  async drain(graceMs: number): Promise<number> {
    this.draining = true;
    if (this.finished.size > 0 && graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.finished]),
        new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    return this.running.size;
  }

  /**
   * Stops taking work, ends running threads, waits until their outcomes are written, and puts
   * the scans they were running back in the queue, so the next start runs them again.
   */
  async close(): Promise<void> {
    this.closed = true;
    const interrupted = [...this.running.keys()];
    for (const task of this.running.values()) task.abort();
    await Promise.allSettled([...this.finished]);
    await this.pool.close();
    if (interrupted.length > 0) {
      await requeueScans(this.db, interrupted);
      this.log.info({ scans: interrupted.length }, 'running scans put back in the queue');
    }
  }
}
