// Light/dark theme of spec §4: dark unless the stored `darkMode` JSON boolean says otherwise;
// the `dark` class on <html> drives Tailwind's dark variant and the page background.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { STORAGE_KEYS } from '@sentinelle/contracts';
import { readStored, writeStored } from './storage.js';

export function readStoredDarkMode(): boolean {
  const stored = readStored(STORAGE_KEYS.darkMode);
  if (stored === null) return true;
  try {
    const value: unknown = JSON.parse(stored);
    return typeof value === 'boolean' ? value : true;
  } catch {
    return true;
  }
}

export function applyTheme(isDark: boolean): void {
  document.documentElement.classList.toggle('dark', isDark);
  document.documentElement.style.colorScheme = isDark ? 'dark' : 'light';
}

interface ThemeState {
  isDark: boolean;
  toggleTheme: () => void;
}

const ThemeContext = createContext<ThemeState | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [isDark, setIsDark] = useState(readStoredDarkMode);

  useEffect(() => {
    applyTheme(isDark);
    writeStored(STORAGE_KEYS.darkMode, JSON.stringify(isDark));
  }, [isDark]);

  const toggleTheme = useCallback(() => setIsDark((dark) => !dark), []);
  const value = useMemo(() => ({ isDark, toggleTheme }), [isDark, toggleTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error('useTheme needs a ThemeProvider');
  return state;
}
