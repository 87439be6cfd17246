// Command-and-control indicators and family fingerprints (threat catalogue §5, §6, GB-020,
// GB-032). Hosts and URL fragments are lower-case and matched as substrings of any string
// the analysis recovers (literal or decoded); fingerprints are matched case-sensitively.

/** Hosts of known C2 panels and historical backdoor droppers. */
export const IOC_HOSTS: readonly string[] = [
  // KVacDoor
  'kvac.cz',
  'kvacdoor.cz',
  // Omega Project (api., steamcommunity. sub-domains included by substring)
  'omega-project.cz',
  // Cipher-Panel (FiveM and GMod)
  'cipher-panel.me',
  // Rival panels Omega blocks (GB-020): their names are panel domains
  'drm.gm',
  'gvacdoor',
  'lkpanel',
  'cipher-panel',
  'xvacdoor',
  'xendoor',
  'exodosium',
  'smart-overwrite',
  // 2015–2016 era
  'gpwn.zapto.org',
  'thisisreallylegit.appspot.com',
  'gmod.hints.me',
  'underdone.org',
  'soldier-76.com',
  'gameserverenforcer.com',
  'buriedselfesteem.com',
  'gmod-rce-senator.c9users.io',
  'gmeme-kalis0x.c9users.io',
  '192.99.145.197',
  '208.146.44.146',
];

/** Path and query fragments of C2 endpoints; specific enough to count on their own. */
export const IOC_URL_FRAGMENTS: readonly string[] = [
  // KVacDoor stager and API paths
  '/f.php?key=',
  '/_/api.php',
  '/_/_.php',
  '/garrysmod/client/scripts',
  // Omega
  '/lua_run/runstring.php',
  '/api_lib/_-_-drm-_-_/__.php',
  'api_connect.php',
  'user_connect.php',
  'chat_connect.php',
  // Panel stagers named in Omega's rival list (GB-020)
  'stage1.php',
  'stage2.php',
  'backdoor.php',
  '?backdoor_key=',
  // 2015–2016 droppers
  '/bd.php',
  '/autocontentupdater',
  '/iujchfsdacj',
];

/**
 * Host endings and free hosts that backdoor panels favour (GB-020 lists them). Weak on their
 * own: a rule should only use them to raise the confidence of a fetch it already reports.
 */
export const SUSPICIOUS_HOST_SUFFIXES: readonly string[] = [
  '.tk',
  '.ml',
  '.gq',
  '.cf',
  '.xyz',
  '000webhostapp.com',
  '000webhost',
  'alwaysdata.net',
  'c9users.io',
  'zapto.org',
];

/** Identifier or string fragments that name a family of panel, backdoor or obfuscator. */
export const FINGERPRINTS: ReadonlyArray<{ pattern: string; family: string }> = [
  // KVacDoor
  { pattern: 'DontRunStringCodePLZ', family: 'KVacDoor' },
  { pattern: 'xeon/xeon.dat', family: 'KVacDoor' },
  { pattern: 'particles/kvac.pcf', family: 'KVacDoor' },
  { pattern: 'GizehSSV', family: 'KVacDoor' },
  { pattern: 'RunningDRMe', family: 'KVacDoor obfuscator' },
  { pattern: 'tenjznj', family: 'KVacDoor obfuscator' },
  { pattern: '7,26,13,15', family: 'KVacDoor' },
  { pattern: '11,22,1,3', family: 'KVacDoor' },
  { pattern: 'BUY KVACDOOR', family: 'KVacDoor' },
  { pattern: 'Valve/Steam HTTP Client 1.0 (4000)', family: 'KVacDoor' },
  // Omega Project
  { pattern: 'GOOGLE_TRUST_FACTOR', family: 'Omega Project' },
  { pattern: 'local OMEGA', family: 'Omega Project' },
  { pattern: 'function(__,anti_lag)', family: 'Omega Project' },
  { pattern: 'local chat_admin', family: 'Omega Project' },
  { pattern: 'Aucun Rcon', family: 'Omega Project' },
  // Cipher-Panel
  { pattern: 'local hash1 = sep', family: 'Cipher-Panel' },
  // GHackDoor and the John Ducksent obfuscator
  { pattern: 'RunningDuck', family: 'GHackDoor' },
  { pattern: 'gblk', family: 'GHackDoor' },
  { pattern: 'RunHASHOb', family: 'John Ducksent obfuscator' },
  // Pon bootstrap (trojanised pon2)
  { pattern: 'metaCache2', family: 'Pon bootstrap' },
];
