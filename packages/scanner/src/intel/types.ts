// The threat-intelligence data the rules consult, versioned with the package.

export interface ThreatIntel {
  /** Version of the data set, reported as `rules_version` with the engine's. */
  version: string;
  /** Net-message names used by known backdoors (Nova/SNTE/gAC/GrobyWare lists). */
  backdoorNetNames: ReadonlySet<string>;
  /** Net-message names of legitimate addons with known unvalidated receivers (GB-004). */
  exploitableNetNames: ReadonlySet<string>;
  /** Console-command names used by known backdoors (GB-005). */
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
}
