// The threat-intelligence data the rules consult, versioned with the package.

export interface ThreatIntel {
  /** Version of the data set, reported as `rules_version` with the engine's. */
  version: string;
  /** Net-message names used by known backdoors (Nova/SNTE/gAC/GrobyWare lists), lower-case. */
  backdoorNetNames: ReadonlySet<string>;
  /** Net-message names of legitimate addons with known unvalidated receivers (GB-004), lower-case. */
  exploitableNetNames: ReadonlySet<string>;
  /** Console-command names used by known backdoors (GB-005), lower-case. */
  backdoorCommandNames: ReadonlySet<string>;
  /** C2 hosts and URL fragments (lower-case); a match inside any string is an IOC. */
  iocHosts: readonly string[];
  iocUrlFragments: readonly string[];
  /** Panel and obfuscator fingerprints: identifier or string fragments with their family. */
  fingerprints: ReadonlyArray<{ pattern: string; family: string }>;
  /** SHA-256 of well-known binary modules (MySQLOO, CHTTP, …), with their name. */
  allowlistedModuleHashes: ReadonlyMap<string, string>;
  /** Names of well-known legitimate binary modules (for `require` calls). */
  knownModuleNames: ReadonlySet<string>;
  /**
   * Backdoor net names so generic that legitimate addons may use them too (`c`, `item`,
   * `music`, …; anti-cheats also register them as honeypots). Lower-case; a subset of
   * `backdoorNetNames`. A rule should need a dangerous handler body before reporting them.
   */
  genericBackdoorNetNames?: ReadonlySet<string>;
  /** For evidence: which public lists name each net (lower-case name → e.g. ['gac','nova','snte']). */
  netNameLists?: ReadonlyMap<string, readonly string[]>;
  /** Backdoor family of each known console command (lower-case name → family). */
  backdoorCommandFamilies?: ReadonlyMap<string, string>;
  /** Host endings and free hosts panels favour (lower-case); weak, only raise confidence. */
  suspiciousHostSuffixes?: readonly string[];
  /**
   * SHA-256 (lower-case hex) of files known to be malicious (a dropper, a stager) → family. A
   * hit is proof by itself; see data/knownFiles.ts for why the shipped set is small.
   */
  maliciousFileHashes?: ReadonlyMap<string, string>;
}
