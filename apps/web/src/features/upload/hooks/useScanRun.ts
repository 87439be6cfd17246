// Drives one scan from upload to results (spec §4 "Upload"): POST the archive, poll the
// status every 2 s, fetch and hold the result, then go to /results. Failures show the
// server's localised message and put the home screen back in its idle state.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { STATUS_POLL_INTERVAL_MS, type ScanResult, type ScanType } from '@sentinelle/contracts';
import { ApiRequestError } from '../../../lib/apiClient.js';
import { showErrorToast } from '../../../components/ui/toast.js';
import { megabytes } from '../../../lib/format.js';
import { useHeldResult } from '../../results/hooks/useHeldResult.js';
import { CURRENT_USER_KEY } from '../../auth/hooks/useCurrentUser.js';
import { cancelScan, fetchScanResult, fetchScanStatus, startScan } from '../api/scan.js';
import { MAX_UPLOAD_MB } from '../checkArchive.js';

export type ScanPhase = 'uploading' | 'analysing' | 'redirecting';

export interface ScanRun {
  phase: ScanPhase;
  scanType: ScanType;
  fileName: string;
  /** Date.now() when the upload began; the progress bar is estimated from it. */
  startedAt: number;
  scanId: string | null;
}

/** Short pause on "redirecting" so the full bar is seen before the results replace it. */
const REDIRECT_PAUSE_MS = 600;

/** The message shown for a failed scan request (spec §8). */
export function scanFailureMessage(error: unknown, t: TFunction, file?: File): string {
  if (error instanceof ApiRequestError) {
    if (error.message !== '' && error.code !== 'network_error') return error.message;
    if (error.status === 413)
      return t('upload.errors.tooLarge', {
        maxSize: MAX_UPLOAD_MB,
        fileSize: file ? megabytes(file.size) : '?',
      });
    if (error.code === 'network_error')
      return t('upload.errors.network', { message: error.message });
  }
  return t('upload.errors.analysisFailed');
}

/** Waits `ms`, or less if the run is stopped meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        window.clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export function useScanRun() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { holdResult } = useHeldResult();
  const [run, setRun] = useState<ScanRun | null>(null);
  // Every start or stop bumps the generation; late answers of an older run are ignored.
  const generation = useRef(0);
  const timer = useRef<number | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);

  const stopTimers = useCallback(() => {
    generation.current += 1;
    window.clearTimeout(timer.current);
    inFlight.current?.abort();
    inFlight.current = null;
  }, []);

  useEffect(() => stopTimers, [stopTimers]);

  const giveUp = useCallback(
    (message: string) => {
      stopTimers();
      setRun(null);
      showErrorToast(message);
      // A failed scan is refunded, and a refused session must be noticed: re-read the member.
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      void navigate('/');
    },
    [stopTimers, queryClient, navigate],
  );

  const finish = useCallback(
    (gen: number, result: ScanResult) => {
      holdResult(result);
      setRun((current) => current && { ...current, phase: 'redirecting', scanId: result.scan_id });
      // Credits and experience changed with this scan.
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      timer.current = window.setTimeout(() => {
        if (gen !== generation.current) return;
        setRun(null);
        void navigate('/results');
      }, REDIRECT_PAUSE_MS);
    },
    [holdResult, queryClient, navigate],
  );

  // Polls until the scan ends; returns early once a newer start or a stop bumped the generation.
  const follow = useCallback(
    async (gen: number, scanId: string, controller: AbortController) => {
      try {
        while (gen === generation.current) {
          await pause(STATUS_POLL_INTERVAL_MS, controller.signal);
          if (gen !== generation.current) return;
          const status = await fetchScanStatus(scanId, controller.signal);
          if (gen !== generation.current) return;
          if (status.status === 'completed') {
            const result = await fetchScanResult(scanId, controller.signal);
            if (gen === generation.current) finish(gen, result);
            return;
          }
          if (status.status === 'failed')
            return giveUp(status.error ?? t('upload.errors.analysisFailed'));
          if (status.status === 'cancelled') return giveUp(t('upload.errors.cancelled'));
          // queued or running: keep polling.
        }
      } catch (error) {
        if (gen === generation.current) giveUp(scanFailureMessage(error, t));
      }
    },
    [finish, giveUp, t],
  );

  const start = useCallback(
    async (file: File, scanType: ScanType) => {
      stopTimers();
      const gen = generation.current;
      const controller = new AbortController();
      inFlight.current = controller;
      setRun({
        phase: 'uploading',
        scanType,
        fileName: file.name,
        startedAt: Date.now(),
        scanId: null,
      });
      try {
        const started = await startScan(file, scanType, controller.signal);
        if (gen !== generation.current) return;
        if (started.kind === 'finished') {
          finish(gen, started.result);
          return;
        }
        setRun((current) => current && { ...current, phase: 'analysing', scanId: started.scanId });
        await follow(gen, started.scanId, controller);
      } catch (error) {
        if (gen === generation.current) giveUp(scanFailureMessage(error, t, file));
      }
    },
    [stopTimers, finish, follow, giveUp, t],
  );

  const cancel = useCallback(async () => {
    const scanId = run?.scanId ?? null;
    stopTimers();
    setRun(null);
    if (scanId) {
      try {
        await cancelScan(scanId);
      } catch {
        // The scan may have just finished; either way the user asked to leave it.
      }
    }
    void navigate('/');
  }, [run, stopTimers, navigate]);

  return { run, start, cancel };
}
