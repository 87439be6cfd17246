import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderApp } from '../../../testing/renderApp.js';
import { aMaliciousResult } from '../../../testing/fixtures.js';

describe('ResultsPage', () => {
  it('goes back home when no result is held', async () => {
    renderApp({ path: '/results' });
    expect(await screen.findByTestId('home-title')).toBeTruthy();
  });

  it('shows score band, counters and the threats, most severe first and opened', () => {
    renderApp({ path: '/results', heldResult: aMaliciousResult() });
    expect(screen.getByTestId('results-filename').textContent).toBe('simplehud.zip');
    expect(screen.getByTestId('score-badge').dataset.band).toBe('critical');
    expect(screen.getByTestId('score-value').textContent).toBe('12');
    expect(screen.getByTestId('score-band').textContent).toBe('Critical');
    expect(screen.getByTestId('counter-files').textContent).toBe('4');
    expect(screen.getByTestId('counter-lines').textContent).toBe('1,234');
    expect(screen.getByTestId('counter-threats').textContent).toBe('2');

    const cards = screen.getAllByTestId('threat-card');
    expect(cards.map((card) => card.dataset.severity)).toEqual(['critical', 'low']);
    const first = within(cards[0]!);
    expect(first.getByTestId('threat-title').textContent).toBe('Remote code execution');
    expect(first.getByTestId('threat-description').textContent).toBe(
      'Code downloaded from the internet is executed.',
    );
    const marked = [...first.getByTestId('threat-code').querySelectorAll('mark')].map(
      (m) => m.textContent,
    );
    expect(marked).toEqual(['http.Fetch', 'RunString']);
    expect(first.getByTestId('threat-decoded').textContent).toContain('print("payload")');
    expect(first.getByTestId('threat-chain').textContent).toContain('http.Fetch body');
    expect(first.getByTestId('threat-techniques').textContent).toBe('GB-001');
    expect(first.getByTestId('threat-locations').textContent).toContain(
      'lua/autorun/server/sv_simplehud.lua:5',
    );

    // The second card starts collapsed and opens on click.
    const second = within(cards[1]!);
    expect(second.queryByTestId('threat-details')).toBeNull();
    fireEvent.click(second.getByTestId('threat-toggle'));
    expect(second.getByTestId('threat-details')).toBeTruthy();

    expect(screen.getByTestId('recommendations').textContent).toBe('Do not install this addon.');
  });

  it('switches the whole page, threat texts included, to French from the header', () => {
    renderApp({ path: '/results', heldResult: aMaliciousResult() });
    fireEvent.click(screen.getByTestId('language-fr'));
    expect(screen.getByTestId('score-band').textContent).toBe('Critique');
    expect(screen.getAllByTestId('threat-title')[0]!.textContent).toBe('Exécution de code distant');
    expect(screen.getAllByTestId('threat-category')[0]!.textContent).toBe('Exécution de code');
    expect(screen.getByTestId('results-back').textContent).toBe('Nouvelle analyse');
    expect(screen.getByTestId('recommendations').textContent).toBe("N'installez pas cet addon.");
    expect(window.localStorage.getItem('language')).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
  });
});
