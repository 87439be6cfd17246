// Console-command names registered by known backdoors (GB-005), from the threat catalogue's
// write-ups of real infections. Compared lower-cased, like the engine does.
export const BACKDOOR_COMMAND_NAMES: ReadonlyArray<readonly [name: string, family: string]> = [
  ['_sv', 'GCap'],
  ['mememachine', 'mememachine'],
  ['timeforaparty', 'AfterShock'],
  ['_76', 'Traitor Glow'],
  ['_76sup', 'Traitor Glow'],
  ['76soldier_sa', 'Traitor Glow'],
  ['76soldier_cf', 'Traitor Glow'],
  ['backdoor_ttt', 'CW2 re-upload'],
  ['VIA', 'Crash'],
  ['XJX3LNWQO1S58PJ1fza0', 'ThirdPersonController'],
  ['sv_root_access', 'AdvDupe2 re-upload'],
  ['sv_run_command', 'AdvDupe2 re-upload'],
  ['thepostaldude', 'thepostaldude'],
  ['grant_admin', 'grant_admin'],
];
