// Reads and writes the local preferences of spec §3 (theme, language, token). Storage can be
// unavailable (private mode, blocked cookies), so every access degrades to "nothing stored".

export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // The preference simply does not survive a reload.
  }
}

export function removeStored(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored means nothing to remove.
  }
}
