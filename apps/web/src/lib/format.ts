// Number formats shared by several screens: sizes in MB, clock times, percentages.

const BYTES_PER_MB = 1024 * 1024;

/** Size in MB with two decimals, as the upload zone and its size message show it. */
export function megabytes(bytes: number): string {
  return (bytes / BYTES_PER_MB).toFixed(2);
}

/** Seconds as m:ss (elapsed time of a running scan). */
export function clock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}
