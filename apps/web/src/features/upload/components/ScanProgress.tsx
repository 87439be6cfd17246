// The progress screen of a running scan: elapsed time, a bar estimated from time (capped at
// 90 % until the answer), analysis type, minutes left, the three phases and a cancel button.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Clock, LoaderCircle, X } from 'lucide-react';
import { PROGRESS_ESTIMATE_CAP_PERCENT, PROGRESS_ESTIMATE_SECONDS } from '@sentinelle/contracts';
import { Button } from '../../../components/ui/Button.js';
import { Card } from '../../../components/ui/Card.js';
import { clock } from '../../../lib/format.js';
import type { ScanPhase, ScanRun } from '../hooks/useScanRun.js';

const PHASES: readonly ScanPhase[] = ['uploading', 'analysing', 'redirecting'];

/** Percent shown on the bar: time over the type's estimate, held at the cap until done. */
export function estimatedPercent(
  run: Pick<ScanRun, 'phase' | 'scanType'>,
  elapsedSeconds: number,
): number {
  if (run.phase === 'redirecting') return 100;
  const estimate = PROGRESS_ESTIMATE_SECONDS[run.scanType];
  return Math.min(PROGRESS_ESTIMATE_CAP_PERCENT, Math.floor((elapsedSeconds / estimate) * 100));
}

function useElapsedSeconds(startedAt: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const ticker = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(ticker);
  }, []);
  return Math.max(0, (now - startedAt) / 1000);
}

export function ScanProgress({ run, onCancel }: { run: ScanRun; onCancel: () => void }) {
  const { t } = useTranslation();
  const elapsed = useElapsedSeconds(run.startedAt);
  const percent = estimatedPercent(run, elapsed);
  const minutesLeft = Math.ceil(
    Math.max(0, PROGRESS_ESTIMATE_SECONDS[run.scanType] - elapsed) / 60,
  );
  const currentIndex = PHASES.indexOf(run.phase);

  return (
    <Card className="space-y-6" data-testid="scan-progress" aria-live="polite">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold">{t(`progress.phaseTitle.${run.phase}`)}</h2>
          <p
            className="truncate text-sm text-gray-600 dark:text-gray-400"
            data-testid="progress-file-name"
          >
            {run.fileName}
          </p>
        </div>
        <span
          className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-semibold text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200"
          data-testid="progress-analysis-type"
        >
          {t(`progress.type.${run.scanType}`)}
        </span>
      </div>

      <div>
        <div className="mb-1 flex justify-between text-sm">
          <span className="flex items-center gap-1 text-gray-600 dark:text-gray-400">
            <Clock className="size-4" aria-hidden />
            <span data-testid="progress-elapsed">
              {t('progress.elapsed', { time: clock(elapsed) })}
            </span>
          </span>
          <span className="font-semibold" data-testid="progress-percent">
            {percent} %
          </span>
        </div>
        <div
          className="h-3 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700"
          role="progressbar"
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-label={t('progress.barLabel')}
        >
          <div
            className="h-full rounded-full bg-emerald-500 transition-[width] duration-500"
            style={{ width: `${percent}%` }}
          />
        </div>
        <p
          className="mt-2 text-sm text-gray-600 dark:text-gray-400"
          data-testid="progress-remaining"
        >
          {run.phase === 'redirecting' || minutesLeft === 0
            ? t('progress.almostDone')
            : t('progress.minutesRemaining', { count: minutesLeft })}
        </p>
      </div>

      <ol className="grid grid-cols-3 gap-2 text-sm" data-testid="progress-phases">
        {PHASES.map((phase, index) => {
          const state =
            index < currentIndex ? 'done' : index === currentIndex ? 'current' : 'pending';
          return (
            <li
              key={phase}
              data-state={state}
              className={`flex items-center gap-2 rounded-lg px-3 py-2 ${
                state === 'current'
                  ? 'bg-emerald-100 font-semibold text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100'
                  : state === 'done'
                    ? 'text-emerald-700 dark:text-emerald-300'
                    : 'text-gray-500'
              }`}
            >
              {state === 'done' ? (
                <Check className="size-4" aria-hidden />
              ) : state === 'current' ? (
                <LoaderCircle className="size-4 animate-spin" aria-hidden />
              ) : (
                <span className="size-4 rounded-full border border-current" aria-hidden />
              )}
              {t(`progress.phase.${phase}`)}
            </li>
          );
        })}
      </ol>

      {run.phase !== 'redirecting' && (
        <div className="flex justify-end">
          <Button variant="secondary" data-testid="cancel-scan" onClick={onCancel}>
            <X className="size-4" aria-hidden />
            {t('progress.cancel')}
          </Button>
        </div>
      )}
    </Card>
  );
}
