// GB-015: reading rcon_password / sv_password (server.cfg, convars): nothing legitimate does.
import { CONVAR_READS } from '../analysis/api.js';
import { textOf } from '../analysis/values.js';
import {
  chainFor,
  deepValues,
  isWebRequest,
  makeFinding,
  requestUrl,
  sourcesOfKind,
} from './support.js';
import { sharedViews } from './shared.js';
import type { AddonAnalysis } from '../analysis/types.js';
import type { Finding, Rule } from './types.js';

const SECRET = /\b(rcon_password|sv_password)\b/i;
const CFG = /(^|\/)cfg\/|\b(server|autoexec|game|gmod-server|listenserver)\.cfg\b/i;
const PASSWORD_CFG = /\b(server|autoexec|game|gmod-server|listenserver)\.cfg\b/i;
/**
 * A player's own config.cfg: the engine writes their binds and settings there, and never the
 * password convars (they are not recorded). An admin's autoexec.cfg can hold the RCON
 * password they type; config.cfg cannot. Read on their client, it is theirs.
 */
const PLAYER_CONFIG = /(?:^|\/)cfg\/config\.cfg$/i;

/**
 * Whether a cfg file read may hold the server's passwords: one named for them, or any file at
 * the top of cfg/ (`cfg/` .. name). A folder of cfg/ the addon names (`cfg/mapconfigs/` ..
 * map .. `.cfg`, the per-map settings an owner writes) is not where server.cfg is, and the
 * game's file functions refuse `..` in a path.
 */
function mayHoldPasswords(path: string): boolean {
  if (PASSWORD_CFG.test(path)) return true;
  const under = /(?:^|\/)cfg\/(.*)$/i.exec(path);
  if (under === null) return true;
  const slash = under[1]!.indexOf('/');
  return slash <= 0 || under[1]!.slice(0, slash).includes('«');
}

/** Whether the file makes an HTTP request or writes to a net message. */
function sendsAnything(analysis: AddonAnalysis, file: string): boolean {
  return analysis.calls.some(
    (c) => c.file === file && /^(http\.|HTTP$|CHTTP$|reqwest$|net\.Write)/.test(c.api),
  );
}

const isFileOrSettingRead = (api: string): boolean =>
  api === 'file.Read' || api === 'file.Open' || CONVAR_READS.test(api);

export const rule: Rule = {
  meta: {
    id: 'credential_theft',
    category: 'data_exfiltration',
    severity: 'critical',
    techniques: ['GB-015'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Server passwords read',
        description:
          'The addon reads rcon_password or sv_password (from server.cfg or the convars). With the RCON password an attacker controls the server remotely.',
        recommendation: 'Remove the addon and change rcon_password and sv_password at once.',
      },
      fr: {
        title: 'Lecture des mots de passe du serveur',
        description:
          "L'addon lit rcon_password ou sv_password (dans server.cfg ou les convars). Avec le mot de passe RCON, un attaquant contrôle le serveur à distance.",
        recommendation: "Supprimez l'addon et changez immédiatement rcon_password et sv_password.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    let cfgRead = false;
    const reads = sharedViews(context).callsWhere(isFileOrSettingRead);
    for (const ev of reads) {
      const convar = CONVAR_READS.test(ev.api);
      const a0 = ev.args[0] ? (textOf(ev.args[0]) ?? '') : '';
      if (convar && SECRET.test(a0)) {
        // No addon needs the RCON password. The join password is also read to tell players
        // the server is locked; unless the file sends something somewhere, that is all.
        const localOnly = /sv_password/i.test(a0) && !sendsAnything(analysis, ev.file);
        out.push(
          makeFinding(rule, analysis, {
            ...(localOnly ? { severity: 'low', verdictClass: 'informational' } : {}),
            confidence: localOnly ? 0.3 : 0.95,
            pattern: `${ev.api}("${a0}")${localOnly ? ', sent nowhere' : ''}`,
            file: ev.file,
            line: ev.line,
            decoded: ev.decoded,
          }),
        );
      } else if ((ev.api === 'file.Read' || ev.api === 'file.Open') && CFG.test(a0)) {
        const playerOwn = ev.realm === 'client' && PLAYER_CONFIG.test(a0);
        const passwords = !playerOwn && mayHoldPasswords(a0);
        if (passwords) cfgRead = true;
        out.push(
          makeFinding(rule, analysis, {
            severity: passwords ? 'high' : 'low',
            ...(passwords ? {} : { verdictClass: 'informational' as const }),
            confidence: passwords ? 0.7 : 0.3,
            pattern: `${ev.api}("${a0}")${passwords ? '' : playerOwn ? ", the player's own settings" : ', a folder of settings'}`,
            file: ev.file,
            line: ev.line,
            decoded: ev.decoded,
          }),
        );
      }
    }
    // Parsing the password lines out of a cfg read makes it certain.
    if (cfgRead) {
      for (const f of analysis.files) {
        const idx = f.lines.findIndex((l) => SECRET.test(l));
        if (idx >= 0)
          out.push(
            makeFinding(rule, analysis, {
              confidence: 0.95,
              pattern: 'rcon_password parsed from server.cfg',
              file: f.path,
              line: idx + 1,
            }),
          );
      }
    }
    for (const d of analysis.decodedStrings) {
      if (SECRET.test(d.text) && cfgRead)
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.9,
            pattern: 'encoded rcon_password',
            file: d.file,
            line: d.line,
            decoded: d.text,
          }),
        );
    }
    // Chain each read to where the secrets leave the server, when they do.
    for (const f of out) {
      const post = analysis.calls.find(
        (c) => c.file === f.file && /^(http\.Post|http\.Fetch|HTTP)$/.test(c.api),
      );
      f.chain = [
        { role: 'source', label: f.pattern, file_path: f.file, line_number: f.line },
        ...(post
          ? [
              {
                role: 'sink' as const,
                label: `${post.api} (sent to a remote host)`,
                file_path: post.file,
                line_number: post.line,
              },
            ]
          : []),
      ];
    }
    // Every global walked and sent to a remote host: other addons' settings in memory (their
    // database passwords, webhooks, API keys) leave with it, no file read needed.
    for (const ev of sharedViews(context).callsWhere(isWebRequest)) {
      const walked = sourcesOfKind(
        ev.args.flatMap((a) => deepValues(a)),
        ['globals'],
      )[0];
      if (walked === undefined) continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.9,
          pattern: `${ev.api} of what a walk of every global found`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: chainFor(ev, [walked]),
        }),
      );
    }
    // A replaced http.Fetch/http.Post/HTTP that sends what it is handed to a host of its own
    // (not the request it forwards): every addon's URLs, parameters and headers, with their
    // API keys, licence keys and webhook tokens, are copied to the author.
    for (const ev of sharedViews(context).callsWhere(isWebRequest)) {
      // (A URL written in the code itself, not the request the replacement forwards.)
      const urlV = requestUrl(ev);
      if (urlV?.k !== 'str' || urlV.taint !== undefined || !/^https?:\/\//i.test(urlV.v)) continue;
      const url = urlV.v;
      const mirrored = sourcesOfKind(
        ev.args.flatMap((a) => deepValues(a)),
        ['requests'],
      )[0];
      if (mirrored === undefined) continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.9,
          pattern: `${ev.api}(${JSON.stringify(url.slice(0, 80))}) of every addon's web requests`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: chainFor(ev, [mirrored]),
          techniques: ['GB-015', 'GB-020'],
        }),
      );
    }
    return out;
  },
};
