// /auth/failed: explains that the Steam sign-in did not complete, lists the usual causes and
// offers a retry (a full navigation to /api/auth/steam) or the way home.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CircleX, House, RefreshCw } from 'lucide-react';
import { Button } from '../../../components/ui/Button.js';
import { Card } from '../../../components/ui/Card.js';

const COMMON_PROBLEMS = ['cancelled', 'network', 'cookies', 'restrictions'] as const;

export function AuthFailedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [retrying, setRetrying] = useState(false);

  const retry = () => {
    setRetrying(true);
    window.location.assign('/api/auth/steam');
  };

  return (
    <Card className="mx-auto mt-16 max-w-lg" data-testid="auth-failed">
      <div className="text-center">
        <CircleX className="mx-auto size-12 text-red-500" aria-hidden />
        <h1 className="mt-3 text-2xl font-bold">{t('authFailed.title')}</h1>
        <p className="mt-2 text-gray-600 dark:text-gray-300">{t('authFailed.message')}</p>
      </div>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
        <Button data-testid="auth-retry" onClick={retry} disabled={retrying}>
          <RefreshCw className={`size-4 ${retrying ? 'animate-spin' : ''}`} aria-hidden />
          {retrying ? t('authFailed.retrying') : t('authFailed.retry')}
        </Button>
        <Button variant="secondary" onClick={() => void navigate('/')}>
          <House className="size-4" aria-hidden />
          {t('common.backHome')}
        </Button>
      </div>
      <h2 className="mt-8 font-semibold">{t('authFailed.commonProblems')}</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-gray-700 dark:text-gray-300">
        {COMMON_PROBLEMS.map((problem) => (
          <li key={problem}>{t(`authFailed.problems.${problem}`)}</li>
        ))}
      </ul>
      <p className="mt-6 rounded-lg bg-gray-100 p-3 text-xs text-gray-600 dark:bg-gray-900/60 dark:text-gray-400">
        {t('authFailed.note')}
      </p>
    </Card>
  );
}
