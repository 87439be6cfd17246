// Header menu of a signed-in player: avatar, name, level with progress, rank, credits, logout.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDown, Coins, LogOut } from 'lucide-react';
import type { User } from '@sentinelle/contracts';
import { Avatar } from '../../../components/ui/Avatar.js';
import { useLogout } from '../hooks/useLogout.js';

export function UserMenu({ user }: { user: User }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (menuRef.current && !menuRef.current.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', closeOnOutsideClick);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOnOutsideClick);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  const progress = Math.round(user.level_progress_percentage);
  return (
    <div className="relative" ref={menuRef}>
      <button
        type="button"
        data-testid="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-2 rounded-full py-1 pr-3 pl-1 hover:bg-gray-200 dark:hover:bg-gray-800"
      >
        <Avatar src={user.avatar} className="size-8" />
        <span className="max-w-32 truncate text-sm font-medium" data-testid="user-name">
          {user.username}
        </span>
        <ChevronDown className="size-4" aria-hidden />
      </button>
      {open && (
        <div
          role="menu"
          data-testid="user-menu"
          className="absolute right-0 mt-2 w-72 rounded-xl border border-gray-200 bg-white p-4 shadow-xl dark:border-gray-700 dark:bg-gray-800"
        >
          <div className="flex items-center gap-3">
            <Avatar src={user.avatar} className="size-12" />
            <div className="min-w-0">
              <p className="truncate font-semibold">{user.username}</p>
              <p className="text-sm text-gray-600 dark:text-gray-300" data-testid="user-rank">
                <span aria-hidden>{user.rank_info.emoji}</span> {t(`ranks.${user.rank}`)}
              </p>
            </div>
          </div>
          <div className="mt-4">
            <div className="flex justify-between text-xs text-gray-600 dark:text-gray-300">
              <span data-testid="user-level">{t('userMenu.level', { level: user.level })}</span>
              <span>{t('userMenu.progress', { percent: progress })}</span>
            </div>
            <div
              className="mt-1 h-2 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700"
              role="progressbar"
              aria-valuenow={progress}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-label={t('userMenu.levelProgress')}
            >
              <div className="h-full bg-emerald-500" style={{ width: `${progress}%` }} />
            </div>
          </div>
          <p className="mt-3 flex items-center gap-2 text-sm" data-testid="user-credits">
            <Coins className="size-4 text-amber-500" aria-hidden />
            {t('userMenu.credits', { count: user.credits })}
          </p>
          <hr className="my-3 border-gray-200 dark:border-gray-700" />
          <button
            type="button"
            role="menuitem"
            data-testid="logout-button"
            onClick={() => void logout()}
            className="flex w-full items-center gap-2 rounded-lg px-2 py-2 text-left text-sm text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/40"
          >
            <LogOut className="size-4" aria-hidden />
            {t('auth.logout')}
          </button>
        </div>
      )}
    </div>
  );
}
