// One threat of a result, collapsed to its headline and expandable to the evidence: text in
// the current language, highlighted code, decoded payload, source → sink chain, techniques
// and locations.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ArrowRight,
  ChevronDown,
  CircleAlert,
  Info,
  OctagonAlert,
  TriangleAlert,
} from 'lucide-react';
import type { Severity, Threat } from '@sentinelle/contracts';
import { isLanguage } from '../../../lib/i18n.js';
import { CodeSnippet } from './CodeSnippet.js';

const SEVERITY_STYLES: Record<
  Severity,
  { Icon: typeof Info; icon: string; badge: string; border: string }
> = {
  critical: {
    Icon: OctagonAlert,
    icon: 'text-red-500',
    badge: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
    border: 'border-l-red-500 dark:border-l-red-500',
  },
  high: {
    Icon: TriangleAlert,
    icon: 'text-orange-500',
    badge: 'bg-orange-100 text-orange-800 dark:bg-orange-900/50 dark:text-orange-200',
    border: 'border-l-orange-500 dark:border-l-orange-500',
  },
  medium: {
    Icon: CircleAlert,
    icon: 'text-yellow-500',
    badge: 'bg-yellow-100 text-yellow-800 dark:bg-yellow-900/50 dark:text-yellow-200',
    border: 'border-l-yellow-500 dark:border-l-yellow-500',
  },
  low: {
    Icon: Info,
    icon: 'text-sky-500',
    badge: 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-200',
    border: 'border-l-sky-500 dark:border-l-sky-500',
  },
};

export function ThreatCard({
  threat,
  defaultOpen = false,
}: {
  threat: Threat;
  defaultOpen?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const text = threat.localized[language];
  const style = SEVERITY_STYLES[threat.severity];
  const first = threat.locations[0];

  return (
    <article
      data-testid="threat-card"
      data-severity={threat.severity}
      className={`rounded-xl border border-l-4 border-gray-200 bg-white dark:border-gray-700/70 dark:bg-gray-800 ${style.border}`}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        data-testid="threat-toggle"
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-start gap-3 p-4 text-left"
      >
        <style.Icon className={`mt-0.5 size-6 shrink-0 ${style.icon}`} aria-hidden />
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold" data-testid="threat-title">
            {text.title}
          </h3>
          <p
            className="mt-0.5 truncate font-mono text-xs text-gray-600 dark:text-gray-400"
            data-testid="threat-pattern"
          >
            {threat.pattern}
          </p>
          <div className="mt-2 flex flex-wrap gap-2 text-xs">
            <span
              className={`rounded-full px-2 py-0.5 font-semibold ${style.badge}`}
              data-testid="threat-severity"
            >
              {t(`severity.${threat.severity}`)}
            </span>
            <span
              className="rounded-full bg-gray-100 px-2 py-0.5 dark:bg-gray-700"
              data-testid="threat-category"
            >
              {t(`categories.${threat.category}`)}
            </span>
            <span className="rounded-full bg-gray-100 px-2 py-0.5 dark:bg-gray-700">
              {t(`verdictClass.${threat.verdict_class}`)}
            </span>
            {first && (
              <span className="truncate font-mono text-gray-500 dark:text-gray-400">
                {first.file_path}:{first.line_number}
              </span>
            )}
          </div>
        </div>
        <ChevronDown
          className={`size-5 shrink-0 transition-transform ${open ? 'rotate-180' : ''}`}
          aria-hidden
        />
      </button>

      {open && (
        <div
          id={bodyId}
          className="space-y-4 border-t border-gray-200 p-4 text-sm dark:border-gray-700"
          data-testid="threat-details"
        >
          <p data-testid="threat-description">{text.description}</p>

          <section>
            <h4 className="mb-1 font-semibold">{t('results.threat.code')}</h4>
            <CodeSnippet code={threat.code_snippet} testId="threat-code" />
          </section>

          {threat.decoded !== undefined && threat.decoded !== '' && (
            <section>
              <h4 className="mb-1 font-semibold">{t('results.threat.decoded')}</h4>
              <CodeSnippet code={threat.decoded} testId="threat-decoded" />
            </section>
          )}

          {threat.chain.length > 0 && (
            <section>
              <h4 className="mb-1 font-semibold">{t('results.threat.chain')}</h4>
              <ol className="flex flex-wrap items-center gap-2" data-testid="threat-chain">
                {threat.chain.map((step, index) => (
                  <li key={index} className="flex items-center gap-2">
                    {index > 0 && <ArrowRight className="size-4 text-gray-400" aria-hidden />}
                    <span className="rounded-lg bg-gray-100 px-2 py-1 dark:bg-gray-900/60">
                      <span className="text-xs text-gray-500 uppercase dark:text-gray-400">
                        {t(`chainRole.${step.role}`)}
                      </span>{' '}
                      <span className="font-mono">{step.label}</span>{' '}
                      <span className="text-xs text-gray-500 dark:text-gray-400">
                        {t('results.threat.atLine', { line: step.line_number })}
                      </span>
                    </span>
                  </li>
                ))}
              </ol>
            </section>
          )}

          {threat.techniques.length > 0 && (
            <section>
              <h4 className="mb-1 font-semibold">{t('results.threat.techniques')}</h4>
              <ul className="flex flex-wrap gap-2" data-testid="threat-techniques">
                {threat.techniques.map((technique) => (
                  <li
                    key={technique}
                    className="rounded bg-violet-100 px-2 py-0.5 font-mono text-xs text-violet-800 dark:bg-violet-900/40 dark:text-violet-200"
                  >
                    {technique}
                  </li>
                ))}
              </ul>
            </section>
          )}

          <section>
            <h4 className="mb-1 font-semibold">
              {t('results.threat.locations', { count: threat.locations.length })}
            </h4>
            <ul className="space-y-2" data-testid="threat-locations">
              {threat.locations.map((location, index) => (
                <li key={index} className="rounded-lg bg-gray-50 p-2 dark:bg-gray-900/50">
                  <p className="font-mono text-xs font-semibold break-all">
                    {location.file_path}:{location.line_number}
                  </p>
                  {location.context !== '' && (
                    <p className="mt-1 font-mono text-xs break-all text-gray-600 dark:text-gray-400">
                      {location.context}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          </section>

          {text.recommendation !== '' && (
            <section className="rounded-lg bg-emerald-50 p-3 text-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100">
              <h4 className="mb-1 font-semibold">{t('results.threat.whatToDo')}</h4>
              <p>{text.recommendation}</p>
            </section>
          )}
        </div>
      )}
    </article>
  );
}
