// The test accounts of the built-in demo sign-in provider.

/** Fixed test accounts; their SteamID64s sit below the range Steam hands out, so they are nobody's. */
export const DEMO_ACCOUNTS = [
  { steamId: '76561190000000001', name: 'Demo Member', colour: '#2563eb' },
  { steamId: '76561190000000002', name: 'Demo Server Owner', colour: '#16a34a' },
  { steamId: '76561190000000003', name: 'Demo Admin', colour: '#dc2626' },
] as const;
/** The demo account that is super administrator when SENTINELLE_SUPER_ADMINS is not set. */
export const DEMO_SUPER_ADMIN = DEMO_ACCOUNTS[2].steamId;
