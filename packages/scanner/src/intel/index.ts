// Loads the threat intelligence shipped with the package (known backdoor and exploitable
// net names, backdoor commands, C2 indicators, module allowlist) into lookup structures.
import { BACKDOOR_COMMAND_NAMES } from './data/backdoorCommands.js';
import { BACKDOOR_NET_NAMES } from './data/backdoorNetNames.js';
import { ALLOWLISTED_MODULE_HASHES, KNOWN_MODULE_NAMES } from './data/binaryModules.js';
import { EXPLOITABLE_NET_NAMES } from './data/exploitableNetNames.js';
import { MALICIOUS_FILE_HASHES } from './data/knownFiles.js';
import {
  FINGERPRINTS,
  IOC_HOSTS,
  IOC_URL_FRAGMENTS,
  SUSPICIOUS_HOST_SUFFIXES,
} from './data/indicators.js';
import type { ThreatIntel } from './types.js';

export type { ThreatIntel } from './types.js';

/**
 * Version of the data set. Bump it whenever a data file changes: it is reported in every
 * result's `rules_version`, so a scan can be traced to the lists it used.
 */
export const INTEL_VERSION = '2026.11.1';

/**
 * Backdoor-list names that ordinary addons could pick for themselves. Kept as a subset so that
 * rules can ask for a dangerous handler before reporting them (threat catalogue GB-003).
 */
const GENERIC_BACKDOOR_NET_NAMES = [
  '88',
  'c',
  'gag',
  'idk',
  'item',
  'kek',
  'music',
  'random',
  'something',
  'stream',
  'r8',
  'doge',
  'reaper',
  'thereaper',
  'nolag',
  'noprop',
  'nocheat',
  'anticrash',
  'antiexploit',
  'changename',
  'playercheck',
  'dontforget',
  '_main',
  '_warns',
  'dominos',
  'readping',
  'lag_ping',
  'sendtest',
  'playeritempickup',
  'playerkilledlogged',
  'arivia',
  'darkrp_money_system',
  'darkrp_gamemodes',
  'darkrp_utf8',
  'darkrp_armors',
  'darkrp_receivedata',
  'fancyscoreboard_leave',
  'echangeinfo',
  'stoppk',
  'striphelper',
  'strip0',
  'cvaraccess',
  'componenttolua',
  'adm_network',
];

function listsByName(
  rows: ReadonlyArray<readonly [string, string]>,
  into: Map<string, readonly string[]>,
): Set<string> {
  const names = new Set<string>();
  for (const [name, lists] of rows) {
    const key = name.toLowerCase();
    names.add(key);
    into.set(key, lists.split(','));
  }
  return names;
}

let cached: ThreatIntel | undefined;

/** The shipped intel, built once per process (the sets are read-only, so sharing is safe). */
export function loadThreatIntel(): ThreatIntel {
  if (cached) return cached;
  const netNameLists = new Map<string, readonly string[]>();
  const backdoorNetNames = listsByName(BACKDOOR_NET_NAMES, netNameLists);
  const exploitableNetNames = listsByName(EXPLOITABLE_NET_NAMES, netNameLists);
  cached = {
    version: INTEL_VERSION,
    backdoorNetNames,
    exploitableNetNames,
    genericBackdoorNetNames: new Set(
      GENERIC_BACKDOOR_NET_NAMES.filter((n) => backdoorNetNames.has(n)),
    ),
    netNameLists,
    backdoorCommandNames: new Set(BACKDOOR_COMMAND_NAMES.map(([name]) => name.toLowerCase())),
    backdoorCommandFamilies: new Map(
      BACKDOOR_COMMAND_NAMES.map(([name, family]) => [name.toLowerCase(), family]),
    ),
    iocHosts: IOC_HOSTS,
    iocUrlFragments: IOC_URL_FRAGMENTS,
    suspiciousHostSuffixes: SUSPICIOUS_HOST_SUFFIXES,
    fingerprints: FINGERPRINTS,
    allowlistedModuleHashes: new Map(
      ALLOWLISTED_MODULE_HASHES.map(([hash, label]) => [hash.toLowerCase(), label]),
    ),
    knownModuleNames: new Set(KNOWN_MODULE_NAMES),
    maliciousFileHashes: new Map(
      MALICIOUS_FILE_HASHES.map(([hash, label]) => [hash.toLowerCase(), label]),
    ),
  };
  return cached;
}

/** The IOC host or URL fragment found inside `text` (any case), if any. */
export function findIoc(intel: ThreatIntel, text: string): string | undefined {
  const lower = text.toLowerCase();
  // (Loops rather than callbacks: see SharedViews.callsWhere in rules/shared.ts.)
  for (const host of intel.iocHosts) if (lower.includes(host)) return host;
  for (const fragment of intel.iocUrlFragments) if (lower.includes(fragment)) return fragment;
  return undefined;
}

/** The family whose fingerprint appears in `text`, with the fingerprint, if any. */
export function findFingerprint(
  intel: ThreatIntel,
  text: string,
): { pattern: string; family: string } | undefined {
  return intel.fingerprints.find((f) => text.includes(f.pattern));
}
