import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderApp } from '../../testing/renderApp.js';
import { aUser } from '../../testing/fixtures.js';
import { initI18n } from '../../lib/i18n.js';

describe('Header', () => {
  it('is dark by default, and the toggle switches to light and stores darkMode as JSON', () => {
    renderApp();
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    fireEvent.click(screen.getByTestId('theme-toggle'));
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(window.localStorage.getItem('darkMode')).toBe('false');
  });

  it('keeps a stored light theme', () => {
    window.localStorage.setItem('darkMode', 'false');
    renderApp();
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });

  it('offers the Steam login when logged out', () => {
    renderApp();
    expect(screen.getByTestId('login-button').textContent).toBe('Sign in with Steam');
  });

  it('shows the user menu with level, progress and rank when signed in', () => {
    initI18n('fr');
    renderApp({
      signedInAs: aUser({
        rank: 'administrator',
        rank_info: {
          name: 'Administrator',
          emoji: '🛡️',
          permissions: {
            admin_access: true,
            manage_credits: true,
            change_rank: false,
            delete_scans: true,
          },
        },
      }),
    });
    expect(screen.queryByTestId('login-button')).toBeNull();
    fireEvent.click(screen.getByTestId('user-menu-button'));
    expect(screen.getByTestId('user-level').textContent).toBe('Niveau 3');
    expect(screen.getByTestId('user-rank').textContent).toBe('🛡️ Administrateur');
    expect(screen.getByTestId('user-menu').textContent).toContain('40 %');
  });
});
