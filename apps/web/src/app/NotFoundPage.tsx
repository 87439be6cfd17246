// Any unknown path: says so and links home.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-md py-24 text-center" data-testid="not-found">
      <h1 className="text-2xl font-bold">{t('notFound.title')}</h1>
      <Link
        to="/"
        className="mt-4 inline-block text-emerald-700 hover:underline dark:text-emerald-400"
      >
        {t('common.backHome')}
      </Link>
    </div>
  );
}
