// A scan worker that never finishes, for tests of cancellation and restart while a scan is
// running (the real scanner is too quick to catch mid-scan reliably).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {
  setInterval(() => {}, 1_000);
});
