// Persona name and avatars from the Steam Web API (GetPlayerSummaries), best-effort: it runs
// after the sign-in has succeeded and a failure only leaves the placeholder name.
import type { Db } from '../db/database.js';

interface PlayerSummary {
  steamid?: unknown;
  personaname?: unknown;
  avatar?: unknown;
  avatarmedium?: unknown;
  avatarfull?: unknown;
  profileurl?: unknown;
}

const text = (value: unknown, max = 2048): string | undefined =>
  typeof value === 'string' && value.length <= max ? value : undefined;
/** Only web URLs may end up in an <img src> or a link. */
const webUrl = (value: unknown): string | undefined => {
  const url = text(value);
  return url && /^https?:\/\//.test(url) ? url : undefined;
};

export async function refreshSteamProfile(
  db: Db,
  steam: { apiUrl: string; apiKey: string | null },
  steamId: string,
  fetchImpl: typeof fetch = fetch,
): Promise<boolean> {
  if (!steam.apiKey) return false;
  const url = new URL(`${steam.apiUrl}/ISteamUser/GetPlayerSummaries/v0002/`);
  url.searchParams.set('key', steam.apiKey);
  url.searchParams.set('steamids', steamId);
  const response = await fetchImpl(url, { redirect: 'error', signal: AbortSignal.timeout(5_000) });
  if (!response.ok) return false;
  const body = (await response.json()) as { response?: { players?: PlayerSummary[] } };
  const player = body.response?.players?.find((p) => p.steamid === steamId);
  if (!player) return false;
  const name = text(player.personaname, 64);
  const changes = {
    ...(name ? { username: name, personaname: name } : {}),
    ...(webUrl(player.avatar) ? { avatar: webUrl(player.avatar) } : {}),
    ...(webUrl(player.avatarmedium) ? { avatar_medium: webUrl(player.avatarmedium) } : {}),
    ...(webUrl(player.avatarfull) ? { avatar_full: webUrl(player.avatarfull) } : {}),
    ...(webUrl(player.profileurl) ? { profile_url: webUrl(player.profileurl) } : {}),
  };
  if (Object.keys(changes).length === 0) return false;
  await db.updateTable('users').set(changes).where('steam_id', '=', steamId).execute();
  return true;
}
