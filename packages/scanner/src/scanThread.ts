// How a thread that runs scans should be sized. The scanner itself starts no thread; the
// server's worker pool and the benchmark both start theirs with these limits, so that what the
// benchmark measures is what the server runs.
import type { ResourceLimits } from 'node:worker_threads';

/**
 * Resource limits for a scan worker thread.
 *
 * A scan builds a large, short-lived structure: the addon's file texts, syntax trees and
 * emulator state live until the scan ends and are dropped together. With V8's default young
 * generation (16 MiB semi-spaces) a large addon goes through dozens of young collections
 * that each copy what the scan has built so far, and then through full collections. A young
 * generation of 256 MiB lets most of that die young: in the benchmark's shape (two workers on
 * two cores) the corpus pass took ~8 % less time (docs/performance.md). Larger sizes were
 * slower again (the nursery no longer fits the caches as well). The memory is only committed
 * as the scan allocates, and is returned when the scan's garbage is collected.
 */
export const SCAN_THREAD_RESOURCE_LIMITS: ResourceLimits = Object.freeze({
  maxYoungGenerationSizeMb: 256,
});
