// /results: the held scan result — score, counters, threats (most severe first) and
// recommendations. Without a held result there is nothing to show, so it goes home.
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { ArrowLeft, Clock, ShieldCheck, TriangleAlert } from 'lucide-react';
import { SEVERITY_RANK, type ScanResult } from '@sentinelle/contracts';
import { Card } from '../../../components/ui/Card.js';
import { Notice } from '../../../components/ui/Notice.js';
import { ScrollToTopButton } from '../../../components/ui/ScrollToTopButton.js';
import { isLanguage } from '../../../lib/i18n.js';
import { useHeldResult } from '../hooks/useHeldResult.js';
import { ResultCounters } from './ResultCounters.js';
import { ScoreBadge } from './ScoreBadge.js';
import { ThreatCard } from './ThreatCard.js';

export function ResultsPage() {
  const { result } = useHeldResult();
  if (!result) return <Navigate to="/" replace />;
  return <ResultView result={result} />;
}

export function ResultView({ result }: { result: ScanResult }) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const threats = [...result.threats].sort(
    (a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity],
  );
  const seconds = new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(
    result.scan_time_seconds,
  );

  return (
    <div className="mx-auto max-w-4xl space-y-6" data-testid="results-page">
      <Link
        to="/"
        data-testid="results-back"
        className="inline-flex items-center gap-1 text-sm font-medium text-emerald-700 hover:underline dark:text-emerald-400"
      >
        <ArrowLeft className="size-4" aria-hidden />
        {t('results.back')}
      </Link>

      <Card className="flex flex-col items-center gap-6 sm:flex-row">
        <ScoreBadge score={result.score} />
        <div className="min-w-0 flex-1 text-center sm:text-left">
          <p className="text-sm text-gray-600 dark:text-gray-400">{t('results.heading')}</p>
          <h1 className="text-2xl font-bold break-all" data-testid="results-filename">
            {result.filename}
          </h1>
          <p className="mt-1 flex items-center justify-center gap-1 text-sm text-gray-600 sm:justify-start dark:text-gray-400">
            <Clock className="size-4" aria-hidden />
            <span data-testid="results-time">{t('results.analysisTime', { seconds })}</span>
          </p>
          <p className="mt-2 font-medium" data-testid="results-verdict">
            {t(`results.verdict.${result.verdict}`)}
          </p>
        </div>
      </Card>

      <ResultCounters result={result} />

      {result.limits_reached.length > 0 && (
        <Notice tone="warning">{t('results.limitsReached')}</Notice>
      )}

      <section aria-labelledby="threats-title" className="space-y-3">
        <h2 id="threats-title" className="text-xl font-semibold">
          {t('results.threatsTitle', { count: threats.length })}
        </h2>
        {threats.length === 0 ? (
          <Card className="flex items-center gap-3" data-testid="no-threats">
            <ShieldCheck className="size-8 text-emerald-500" aria-hidden />
            <p>{t('results.noThreats')}</p>
          </Card>
        ) : (
          <div className="space-y-3" data-testid="threat-list">
            {threats.map((threat, index) => (
              <ThreatCard
                key={`${threat.pattern_key}-${index}`}
                threat={threat}
                defaultOpen={index === 0}
              />
            ))}
          </div>
        )}
      </section>

      {result.recommendations.length > 0 && (
        <section aria-labelledby="recommendations-title">
          <Card>
            <h2
              id="recommendations-title"
              className="flex items-center gap-2 text-xl font-semibold"
            >
              <TriangleAlert className="size-5 text-amber-500" aria-hidden />
              {t('results.recommendationsTitle')}
            </h2>
            <ul className="mt-3 list-disc space-y-2 pl-5" data-testid="recommendations">
              {result.recommendations.map((recommendation) => (
                <li key={recommendation.key}>{recommendation.localized[language]}</li>
              ))}
            </ul>
          </Card>
        </section>
      )}

      <ScrollToTopButton />
    </div>
  );
}
