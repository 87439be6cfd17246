// The score with its colour from the results scale (≥90 safe … <40 critical).
import { useTranslation } from 'react-i18next';
import { resultBand, type ResultBand } from '@sentinelle/contracts';

const BAND_CLASSES: Record<ResultBand, string> = {
  safe: 'border-emerald-500 bg-emerald-50 text-emerald-700 dark:bg-emerald-950/40 dark:text-emerald-300',
  attention:
    'border-yellow-500 bg-yellow-50 text-yellow-700 dark:bg-yellow-950/40 dark:text-yellow-300',
  dangerous:
    'border-orange-500 bg-orange-50 text-orange-700 dark:bg-orange-950/40 dark:text-orange-300',
  critical: 'border-red-500 bg-red-50 text-red-700 dark:bg-red-950/40 dark:text-red-300',
};

export function ScoreBadge({ score }: { score: number }) {
  const { t } = useTranslation();
  const band = resultBand(score);
  return (
    <div
      data-testid="score-badge"
      data-band={band}
      className={`flex size-32 shrink-0 flex-col items-center justify-center rounded-full border-4 ${BAND_CLASSES[band]}`}
    >
      <span className="text-4xl font-bold" data-testid="score-value">
        {score}
      </span>
      <span className="text-xs opacity-80">/ 100</span>
      <span className="mt-1 text-xs font-semibold tracking-wide uppercase" data-testid="score-band">
        {t(`results.band.${band}`)}
      </span>
    </div>
  );
}
