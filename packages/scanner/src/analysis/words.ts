// Word statistics of a Lua file's text for the lexical-noise rules: identifiers and the ones that
// look machine-generated, counted in one pass over the characters.

/** Word characters as a regex `\w` sees them (no unicode flag): A-Z a-z 0-9 _. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/**
 * A machine-generated name, as a whole word: `_0x` and hex digits, 8+ of `lIO0_` or 22+
 * letters only (what `\b(_0x[0-9a-fA-F]{2,}|[lIO0_]{8,}|[a-zA-Z]{22,})\b` matches).
 */
function isObfuscatedWord(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (
    length >= 5 &&
    text.charCodeAt(start) === 95 &&
    text.charCodeAt(start + 1) === 48 &&
    text.charCodeAt(start + 2) === 120
  ) {
    let hex = true;
    for (let i = start + 3; i < end && hex; i++) hex = isHexDigit(text.charCodeAt(i));
    if (hex) return true;
  }
  if (length >= 8) {
    let confusable = true;
    for (let i = start; i < end && confusable; i++) {
      const c = text.charCodeAt(i);
      confusable = c === 108 || c === 73 || c === 79 || c === 48 || c === 95;
    }
    if (confusable) return true;
  }
  if (length >= 22) {
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90))) return false;
    }
    return true;
  }
  return false;
}

/**
 * Identifier-like words of the whole text (code, strings and comments: what `\b[A-Za-z_]\w*\b`
 * matches, up to 1 000 000) and how many of them look machine-generated (up to 100 000), in
 * one pass over the characters instead of two regex scans.
 */
export function countWords(text: string): { identifiers: number; obfuscated: number } {
  let identifiers = 0;
  let obfuscated = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isWordChar(text.charCodeAt(i))) i++;
    const first = text.charCodeAt(start);
    // A word starting with a digit is no identifier, yet `00000000lI` still looks generated.
    if (!(first >= 48 && first <= 57)) identifiers++;
    if (isObfuscatedWord(text, start, i)) obfuscated++;
  }
  return {
    identifiers: Math.min(identifiers, 1_000_000),
    obfuscated: Math.min(obfuscated, 100_000),
  };
}
