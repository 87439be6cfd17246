// The messages exchanged between the scan queue and a scan worker thread.
import type { Language, ScanType } from '@sentinelle/contracts';

export interface ScanTask {
  scanId: string;
  archivePath: string;
  filename: string;
  language: Language;
  scanType: ScanType;
}

export type ScanWorkerReply =
  | { scanId: string; ok: true; result: unknown }
  | { scanId: string; ok: false; error: { name: string; code?: string; message: string } };
