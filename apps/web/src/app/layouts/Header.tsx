// The site header: logo, language, theme, and the login button or user menu. It slides away
// once the page is scrolled beyond HEADER_HIDE_SCROLL_PX (spec §2).
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ShieldCheck } from 'lucide-react';
import { HEADER_HIDE_SCROLL_PX } from '@sentinelle/contracts';
import { LoginButton } from '../../features/auth/components/LoginButton.js';
import { UserMenu } from '../../features/auth/components/UserMenu.js';
import { useCurrentUser } from '../../features/auth/hooks/useCurrentUser.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { LanguageSwitcher } from './LanguageSwitcher.js';
import { ThemeToggle } from './ThemeToggle.js';

function useScrolledPast(limit: number): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    const onScroll = () => setPast(window.scrollY > limit);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [limit]);
  return past;
}

export function Header() {
  const { t } = useTranslation();
  const hidden = useScrolledPast(HEADER_HIDE_SCROLL_PX);
  const { user, isLoading } = useCurrentUser();

  return (
    <header
      data-testid="site-header"
      data-hidden={hidden}
      className={`fixed inset-x-0 top-0 z-30 border-b border-gray-200 bg-gray-100/90 backdrop-blur transition-transform duration-300 dark:border-gray-800 dark:bg-gray-900/90 ${
        hidden ? '-translate-y-full' : 'translate-y-0'
      }`}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold" data-testid="logo">
          <ShieldCheck className="size-7 text-emerald-500" aria-hidden />
          <span>Sentinelle</span>
          <span className="sr-only">{t('header.home')}</span>
        </Link>
        <div className="flex items-center gap-2">
          <LanguageSwitcher />
          <ThemeToggle />
          {user ? (
            <UserMenu user={user} />
          ) : isLoading ? (
            <Spinner className="size-6" label={t('common.loading')} />
          ) : (
            <LoginButton />
          )}
        </div>
      </div>
    </header>
  );
}
