import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage } from './i18n.js';

afterEach(() => vi.restoreAllMocks());

const browserLanguages = (languages: string[]) =>
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);

describe('detectLanguage', () => {
  it('prefers the stored choice', () => {
    window.localStorage.setItem('language', 'fr');
    browserLanguages(['en-US']);
    expect(detectLanguage()).toBe('fr');
  });

  it('follows the browser when nothing valid is stored', () => {
    window.localStorage.setItem('language', 'de');
    browserLanguages(['fr-CA', 'en']);
    expect(detectLanguage()).toBe('fr');
  });

  it('falls back to English for other browser languages', () => {
    browserLanguages(['de-DE', 'es']);
    expect(detectLanguage()).toBe('en');
  });
});
