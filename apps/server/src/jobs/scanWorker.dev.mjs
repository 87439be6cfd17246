// Development/test entry of the scan worker: worker_threads cannot load .ts under tsx, so
// this plain module registers tsx's loader in the thread and then imports the .ts worker.
import { register } from 'tsx/esm/api';

register();
await import('./scanWorker.ts');
