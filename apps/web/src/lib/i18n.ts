// Sets up i18next with the two locale files; the language comes from the stored choice, else
// the browser (en or fr), else English, and every change is stored under `language`.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, STORAGE_KEYS, type Language } from '@sentinelle/contracts';
import en from '../locales/en.json';
import fr from '../locales/fr.json';
import { readStored, writeStored } from './storage.js';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The stored language, else the first browser language we speak, else English. */
export function detectLanguage(): Language {
  const stored = readStored(STORAGE_KEYS.language);
  if (isLanguage(stored)) return stored;
  const browser =
    typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of browser) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

export function initI18n(language: Language = detectLanguage()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { en: { translation: en }, fr: { translation: fr } },
      lng: language,
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false }, // React escapes already.
      initAsync: false,
    });
  } else {
    void i18n.changeLanguage(language);
  }
  document.documentElement.lang = language;
  return i18n;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
}

export function switchLanguage(language: Language): void {
  writeStored(STORAGE_KEYS.language, language);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}
