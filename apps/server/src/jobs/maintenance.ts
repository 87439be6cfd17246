// The maintenance job: applies the daily credit reset and purges expired scans, once when the
// server starts (so a server that was down at reset time still resets) and then periodically.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { CreditResets } from '../services/creditReset.js';
import { purgeExpiredScans } from '../services/retention.js';

export class Maintenance {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly creditResets: CreditResets,
    private readonly clock: () => number,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): Promise<void> {
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
    return this.runOnce();
  }

  /** One pass of both tasks; a pass already under way is joined, not doubled. */
  runOnce(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      const now = this.clock();
      try {
        const reset = await this.creditResets.sweep(now);
        if (reset > 0) this.log.info({ members: reset }, 'daily credit reset applied');
      } catch (error) {
        this.log.error({ err: error }, 'daily credit reset failed');
      }
      try {
        const purged = await purgeExpiredScans(this.db, now);
        if (purged > 0) this.log.info({ scans: purged }, 'expired scans purged');
      } catch (error) {
        this.log.error({ err: error }, 'retention sweep failed');
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
