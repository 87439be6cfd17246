// /auth/success: trades the login ticket for a session, shows a 2-second loading state, then
// who signed in, and counts 3 seconds down before going home (spec §2, §4).
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { CircleCheck } from 'lucide-react';
import { AUTH_SUCCESS_LOADING_MS, AUTH_SUCCESS_REDIRECT_SECONDS } from '@sentinelle/contracts';
import { Avatar } from '../../../components/ui/Avatar.js';
import { Card } from '../../../components/ui/Card.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { useSession } from '../../../lib/session.js';
import { exchangeLoginTicket } from '../api/auth.js';
import { useCurrentUser } from '../hooks/useCurrentUser.js';

export function AuthSuccessPage() {
  const [params] = useSearchParams();
  const ticket = params.get('token') ?? '';
  if (ticket === '') return <Navigate to="/auth/failed" replace />;
  return <TicketExchange ticket={ticket} />;
}

function TicketExchange({ ticket }: { ticket: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { storeToken } = useSession();
  // A query (not a mutation) so the single-use ticket is sent once even when effects re-run.
  const exchange = useQuery({
    queryKey: ['auth', 'session', ticket],
    queryFn: () => exchangeLoginTicket(ticket),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const { user, isError: userFailed } = useCurrentUser();
  const [loadingOver, setLoadingOver] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState<number>(AUTH_SUCCESS_REDIRECT_SECONDS);

  useEffect(() => {
    if (exchange.data) storeToken(exchange.data);
  }, [exchange.data, storeToken]);

  useEffect(() => {
    if (exchange.isError || (exchange.isSuccess && userFailed))
      void navigate('/auth/failed', { replace: true });
  }, [exchange.isError, exchange.isSuccess, userFailed, navigate]);

  useEffect(() => {
    const timer = window.setTimeout(() => setLoadingOver(true), AUTH_SUCCESS_LOADING_MS);
    return () => window.clearTimeout(timer);
  }, []);

  const showSuccess = loadingOver && exchange.isSuccess && user !== undefined;
  useEffect(() => {
    if (!showSuccess) return;
    if (secondsLeft <= 0) {
      void navigate('/', { replace: true });
      return;
    }
    const timer = window.setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [showSuccess, secondsLeft, navigate]);

  if (!showSuccess) {
    return (
      <div
        className="mx-auto flex max-w-md flex-col items-center gap-4 py-24 text-center"
        data-testid="auth-loading"
      >
        <Spinner className="size-10" />
        <p className="text-lg font-medium">{t('authSuccess.loading')}</p>
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('authSuccess.loadingHint')}</p>
      </div>
    );
  }

  return (
    <Card className="mx-auto mt-16 max-w-md text-center" data-testid="auth-success">
      <CircleCheck className="mx-auto size-12 text-emerald-500" aria-hidden />
      <h1 className="mt-3 text-2xl font-bold">{t('authSuccess.title')}</h1>
      <Avatar src={user.avatar} className="mx-auto mt-5 size-20" />
      <p className="mt-3 text-lg font-semibold" data-testid="auth-success-username">
        {user.username}
      </p>
      <p className="text-sm text-gray-600 dark:text-gray-300">
        <span aria-hidden>{user.rank_info.emoji}</span> {t(`ranks.${user.rank}`)}
      </p>
      <p
        className="mt-6 text-sm text-gray-600 dark:text-gray-400"
        data-testid="auth-success-countdown"
      >
        {t('authSuccess.redirecting', { count: secondsLeft })}
      </p>
    </Card>
  );
}
