// The built-in DEMO sign-in provider (embedded default, refused in production): a local page
// that plays Steam's part so sign-in works with no internet. It signs real OpenID assertions
// and answers check_authentication, so the relying party verifies them like Steam's.
import type { FastifyInstance } from 'fastify';
import { DEMO_STEAM_PREFIX } from '../config.js';
import { AssertionSigner, redirectWithAssertion } from './openIdAssertion.js';
import { RETURN_PATH } from './steamOpenId.js';
import { DEMO_ACCOUNTS } from './demoAccounts.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#1f2937;color:#f9fafb;display:flex;justify-content:center;padding:3rem 1rem;margin:0}
main{max-width:32rem;width:100%;background:#111827;border:2px dashed #f59e0b;border-radius:12px;padding:2rem}
.banner{background:#f59e0b;color:#111827;font-weight:700;padding:.5rem .75rem;border-radius:6px;margin-bottom:1rem}
a.account{display:flex;align-items:center;gap:1rem;padding:.75rem;margin:.5rem 0;border-radius:8px;background:#374151;color:inherit;text-decoration:none}
a.account:hover{background:#4b5563} img{width:48px;height:48px;border-radius:6px} small{color:#9ca3af}
</style></head><body><main>${body}</main></body></html>`;
}

export async function demoSteamProvider(app: FastifyInstance): Promise<void> {
  const { publicUrl, steam } = app.config;
  const signer = new AssertionSigner();
  const callback = `${publicUrl}${RETURN_PATH}`;
  const isOurCallback = (returnTo: string | undefined): returnTo is string => {
    if (!returnTo) return false;
    try {
      const url = new URL(returnTo);
      return `${url.origin}${url.pathname}` === callback;
    } catch {
      return false;
    }
  };
  const avatarUrl = (steamId: string) => `${publicUrl}${DEMO_STEAM_PREFIX}/avatar/${steamId}.svg`;

  // check_authentication arrives as a form post.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get('/openid/login', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const returnTo = query['openid.return_to'];
    if (query['openid.mode'] !== 'checkid_setup' || !isOurCallback(returnTo)) {
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Demo sign-in',
            '<p>This demo provider only signs in to this Sentinelle server.</p>',
          ),
        );
    }
    const accounts = DEMO_ACCOUNTS.map((account) => {
      const href = `${DEMO_STEAM_PREFIX}/openid/approve?steamid=${account.steamId}&return_to=${encodeURIComponent(returnTo)}`;
      return `<a class="account" href="${escapeHtml(href)}"><img src="${escapeHtml(avatarUrl(account.steamId))}" alt="">
<span><strong>${escapeHtml(account.name)}</strong><br><small>${account.steamId}</small></span></a>`;
    }).join('');
    return reply.type('text/html; charset=utf-8').send(
      page(
        'Local demo sign-in — not Steam',
        `<div class="banner">LOCAL DEMO — this is not Steam</div>
<h1>Demo sign-in</h1>
<p>This Sentinelle server runs without Steam configuration, so this page stands in for Steam. Pick a test account:</p>
${accounts}
<p><small>Set STEAM_OPENID_ENDPOINT to use the real Steam. This demo is refused when NODE_ENV=production.</small></p>`,
      ),
    );
  });

  app.get('/openid/approve', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const account = DEMO_ACCOUNTS.find((a) => a.steamId === query.steamid);
    if (!account || !isOurCallback(query.return_to))
      return reply.status(400).send('unknown account or return address');
    const assertion = signer.sign({
      endpoint: steam.openIdEndpoint,
      idPrefix: steam.idPrefix,
      steamId: account.steamId,
      returnTo: query.return_to,
    });
    return reply.redirect(redirectWithAssertion(query.return_to, assertion), 302);
  });

  app.post('/openid/login', { config: { rateLimit: false } }, async (request, reply) => {
    const params = (request.body ?? {}) as Record<string, string>;
    return reply
      .type('text/plain; charset=utf-8')
      .send(AssertionSigner.reply(signer.checkAuthentication(params)));
  });

  // The part of the Steam Web API the server uses for names and avatars.
  app.get('/api/ISteamUser/GetPlayerSummaries/v0002/', async (request) => {
    const ids = String((request.query as Record<string, unknown>).steamids ?? '').split(',');
    const players = DEMO_ACCOUNTS.filter((a) => ids.includes(a.steamId)).map((a) => ({
      steamid: a.steamId,
      personaname: a.name,
      avatar: avatarUrl(a.steamId),
      avatarmedium: avatarUrl(a.steamId),
      avatarfull: avatarUrl(a.steamId),
      profileurl: `${publicUrl}${DEMO_STEAM_PREFIX}/openid/id/${a.steamId}`,
    }));
    return { response: { players } };
  });

  app.get('/avatar/:file', async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const account = DEMO_ACCOUNTS.find((a) => `${a.steamId}.svg` === file);
    if (!account) return reply.status(404).send();
    const initials = account.name
      .split(' ')
      .map((w) => w[0])
      .join('')
      .slice(0, 2);
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${account.colour}"/><text x="32" y="41" font-family="sans-serif" font-size="24" fill="#fff" text-anchor="middle">${initials}</text></svg>`,
      );
  });
}
