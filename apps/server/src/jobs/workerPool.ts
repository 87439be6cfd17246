// A small pool of scan worker threads of our own. Idle threads are reused; a thread that
// runs over its time budget, is cancelled or crashes is terminated and never reused.
import { Worker } from 'node:worker_threads';
import { SCAN_THREAD_RESOURCE_LIMITS } from '@sentinelle/scanner';
import type { ScanTask, ScanWorkerReply } from './scanTask.js';

export type ScanOutcome =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; name: string; code?: string; message: string }
  | { kind: 'timeout' }
  | { kind: 'aborted' }
  | { kind: 'crashed'; message: string };

export interface RunningTask {
  outcome: Promise<ScanOutcome>;
  /** Stops the thread now; the outcome becomes `aborted`. */
  abort(): void;
}

/** Built JS beside this module in production; the tsx-registering .mjs when running from source. */
export function defaultWorkerEntry(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('./scanWorker.dev.mjs', here)
    : new URL('./scanWorker.js', here);
}

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();

  constructor(
    private readonly entry: URL = defaultWorkerEntry(),
    private readonly maxIdle = 1,
  ) {}

  get threadCount(): number {
    return this.all.size;
  }

  private spawn(): Worker {
    // Sized for scans (see SCAN_THREAD_RESOURCE_LIMITS), as the benchmark sizes its workers.
    const worker = new Worker(this.entry, { resourceLimits: SCAN_THREAD_RESOURCE_LIMITS });
    worker.unref();
    this.all.add(worker);
    worker.once('exit', () => {
      this.all.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at !== -1) this.idle.splice(at, 1);
    });
    return worker;
  }

  run(task: ScanTask, timeoutMs: number): RunningTask {
    const worker = this.idle.pop() ?? this.spawn();
    let settle!: (outcome: ScanOutcome) => void;
    let settled = false;
    const outcome = new Promise<ScanOutcome>((resolve) => (settle = resolve));

    const finish = (result: ScanOutcome, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reusable && this.idle.length < this.maxIdle) this.idle.push(worker);
      else void worker.terminate();
      settle(result);
    };
    const onMessage = (reply: ScanWorkerReply) => {
      if (reply.scanId !== task.scanId) return;
      finish(
        reply.ok ? { kind: 'result', result: reply.result } : { kind: 'error', ...reply.error },
        true,
      );
    };
    const onError = (error: Error) => finish({ kind: 'crashed', message: error.message }, false);
    const onExit = (code: number) =>
      finish({ kind: 'crashed', message: `worker exited with code ${code}` }, false);
    const timer = setTimeout(() => finish({ kind: 'timeout' }, false), timeoutMs);

    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(task);
    return { outcome, abort: () => finish({ kind: 'aborted' }, false) };
  }

  async close(): Promise<void> {
    await Promise.all([...this.all].map((w) => w.terminate()));
    this.idle.length = 0;
  }
}
