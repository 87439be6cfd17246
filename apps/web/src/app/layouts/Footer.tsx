// The site footer: the credits line.
import { useTranslation } from 'react-i18next';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-gray-200 py-6 text-center text-sm text-gray-600 dark:border-gray-800 dark:text-gray-400">
      {t('footer.credits', { year: new Date().getFullYear() })}
    </footer>
  );
}
