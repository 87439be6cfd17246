// fr/en switch of the header; the choice is stored under `language`.
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@sentinelle/contracts';
import { switchLanguage } from '../../lib/i18n.js';

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <div
      role="group"
      aria-label={t('header.language')}
      className="flex rounded-lg border border-gray-300 p-0.5 dark:border-gray-700"
    >
      {LANGUAGES.map((language) => {
        const active = i18n.resolvedLanguage === language;
        return (
          <button
            key={language}
            type="button"
            data-testid={`language-${language}`}
            aria-pressed={active}
            onClick={() => switchLanguage(language)}
            className={`rounded-md px-2 py-1 text-xs font-semibold uppercase ${
              active
                ? 'bg-emerald-600 text-white'
                : 'text-gray-600 hover:bg-gray-200 dark:text-gray-300 dark:hover:bg-gray-800'
            }`}
          >
            {language}
          </button>
        );
      })}
    </div>
  );
}
