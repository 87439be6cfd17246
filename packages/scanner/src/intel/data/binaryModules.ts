// Well-known legitimate binary modules (GB-011): their `require` names, and the SHA-256 of
// released builds for allowlisting by content rather than by file name.

/** Names passed to `require` (without the gmsv_/gmcl_ prefix and platform suffix). */
export const KNOWN_MODULE_NAMES: readonly string[] = [
  'mysqloo',
  'tmysql',
  'tmysql4',
  'chttp',
  'gwsockets',
  'reqwest',
  'luaerror',
  'serversecure',
  'bromsock',
  'xconsole',
  'enginespew',
];

/**
 * SHA-256 (lower-case hex) of released module binaries → "name version platform", e.g.
 * `['3f…a1', 'mysqloo 9.7.6 gmsv_mysqloo_linux64.dll']`. Deliberately empty: hashes must be
 * taken from the official release assets, which cannot be downloaded in this build
 * environment, and a guessed hash would allowlist nothing or the wrong file. Until filled, a
 * module named like a known one is still reported, as "named like <module>, hash not
 * verified".
 */
export const ALLOWLISTED_MODULE_HASHES: ReadonlyArray<readonly [sha256: string, label: string]> = [];
