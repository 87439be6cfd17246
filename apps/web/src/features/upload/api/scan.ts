// Calls of spec §7 "Scanning": upload, status, result and cancellation of a scan.
import {
  scanAcceptedResponseSchema,
  scanCancelResponseSchema,
  scanResultResponseSchema,
  scanStatusResponseSchema,
  type ScanResult,
  type ScanType,
} from '@sentinelle/contracts';
import { apiFetch, apiRequest, parseAnswer } from '../../../lib/apiClient.js';
import { currentLanguage } from '../../../lib/i18n.js';

/** The server either queues the scan (202) or answers at once with the result (200). */
export type ScanStart =
  { kind: 'accepted'; scanId: string } | { kind: 'finished'; result: ScanResult };

export async function startScan(
  file: File,
  scanType: ScanType,
  signal?: AbortSignal,
): Promise<ScanStart> {
  const form = new FormData();
  // Text fields first: the server reads the multipart stream in order and stops at the file.
  form.append('deep_scan', scanType === 'ia' ? 'true' : 'false');
  form.append('language', currentLanguage());
  form.append('file', file, file.name);
  const answer = await apiFetch('/api/scan', { method: 'POST', form, signal });
  if (answer.status === 202)
    return { kind: 'accepted', scanId: parseAnswer(scanAcceptedResponseSchema, answer).scan_id };
  return { kind: 'finished', result: parseAnswer(scanResultResponseSchema, answer) };
}

const scanPath = (action: string, scanId: string) =>
  `/api/scan/${action}/${encodeURIComponent(scanId)}`;

export function fetchScanStatus(scanId: string, signal?: AbortSignal) {
  return apiRequest(scanPath('status', scanId), scanStatusResponseSchema, { signal });
}

export function fetchScanResult(scanId: string, signal?: AbortSignal) {
  return apiRequest(scanPath('results', scanId), scanResultResponseSchema, { signal });
}

export function cancelScan(scanId: string) {
  return apiRequest(scanPath('cancel', scanId), scanCancelResponseSchema, {
    method: 'POST',
    json: {},
  });
}
