// The home screen's feature highlights: what the scan looks for and how files are handled.
import { useTranslation } from 'react-i18next';
import { Binary, Lock, Network, Zap } from 'lucide-react';

const HIGHLIGHTS = [
  { key: 'backdoors', Icon: Network },
  { key: 'obfuscation', Icon: Binary },
  { key: 'fast', Icon: Zap },
  { key: 'privacy', Icon: Lock },
] as const;

export function FeatureHighlights() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="features-title" className="mt-16">
      <h2 id="features-title" className="text-center text-2xl font-bold">
        {t('home.features.title')}
      </h2>
      <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {HIGHLIGHTS.map(({ key, Icon }) => (
          <div
            key={key}
            className="rounded-2xl border border-gray-200 bg-white p-5 dark:border-gray-700/70 dark:bg-gray-800"
          >
            <Icon className="size-8 text-emerald-500" aria-hidden />
            <h3 className="mt-3 font-semibold">{t(`home.features.${key}.title`)}</h3>
            <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
              {t(`home.features.${key}.text`)}
            </p>
          </div>
        ))}
      </div>
    </section>
  );
}
