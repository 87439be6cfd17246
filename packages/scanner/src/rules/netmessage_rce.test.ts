// Valid and invalid cases of the `netmessage_rce` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './netmessage_rce.js';
import { check, RANK, worst } from './ruleTesting.js';

/**
 * An addon that spawns the entities of a preset it ships for each map, read for the current
 * map from data_static/, each with its keyvalues.
 */
function mapPreset(props: object[]): Record<string, string> {
  return {
    'lua/autorun/server/sv_presets.lua': [
      'local function SpawnRow(row)',
      '  local ent = ents.Create(row.class)',
      '  if not IsValid(ent) then return end',
      '  for k, v in pairs(row.kv or {}) do ent:SetKeyValue(k, tostring(v)) end',
      '  ent:Spawn()',
      'end',
      'hook.Add("InitPostEntity", "presets", function()',
      '  local preset = util.JSONToTable(file.Read("presets/defaults/" .. game.GetMap() .. ".json", "DATA") or "")',
      '  if preset then for _, row in ipairs(preset.props or {}) do SpawnRow(row) end end',
      'end)',
    ].join('\n'),
    'data_static/presets/defaults/gm_construct.json': JSON.stringify({ props }),
  };
}

describe('netmessage_rce', () => {
  it('a map preset shipped in data_static/, read for the current map, spawning a lua_run whose code runs what clients send', () => {
    const findings = check(
      rule,
      mapPreset([
        { class: 'prop_physics', kv: { targetname: 'crate' } },
        {
          class: 'lua_run',
          kv: { Code: "net.Receive('lamp', function(l, p) RunString(net.ReadString(), 'x') end)" },
        },
      ]),
    );
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('a map preset shipped in data_static/ spawning props only (benign)', () => {
    const findings = check(
      rule,
      mapPreset([
        { class: 'prop_physics', kv: { targetname: 'crate' } },
        { class: 'prop_dynamic', kv: { targetname: 'lamp', skin: '1' } },
      ]),
    );
    expect(findings).toEqual([]);
  });
  it("an STool compiling its client setting (the player's own console variable) on the server", () => {
    const findings = check(rule, {
      'lua/weapons/gmod_tool/stools/neon.lua': [
        'TOOL.ClientConVar["color"] = "255, 0, 0"',
        'local function parse(s)',
        '  local f = CompileString("return " .. s, "neon", false)',
        '  if isfunction(f) then return f() end',
        'end',
        'function TOOL:LeftClick(trace)',
        '  if CLIENT then return true end',
        '  local col = parse(self:GetClientInfo("color"))',
        '  return true',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('an STool that writes its client setting on the entity it makes (benign)', () => {
    const findings = check(rule, {
      'lua/weapons/gmod_tool/stools/neon.lua': [
        'TOOL.ClientConVar["text"] = "OPEN"',
        'function TOOL:LeftClick(trace)',
        '  if CLIENT then return true end',
        '  local ent = ents.Create("prop_physics")',
        '  ent:SetNWString("text", string.sub(self:GetClientInfo("text"), 1, 48))',
        '  ent:Spawn()',
        '  return true',
        'end',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("an STool or a receiver sending a player's own text back to that player's client as Lua", () => {
    // Wiremod extras' data simulator: the tool owner's own setting, shown back to them.
    const findings = check(rule, {
      'lua/weapons/gmod_tool/stools/simulate.lua': [
        'TOOL.ClientConVar["string"] = ""',
        'local function PrintError(player, a, b) player:SendLua("notification.AddLegacy(\'" .. a .. b .. "\', 0, 5)") end',
        'function TOOL:LeftClick(trace)',
        '  if CLIENT then return true end',
        '  local player = self:GetOwner()',
        '  PrintError(player, "Item ", self:GetClientInfo("string"))',
        '  return true',
        'end',
      ].join('\n'),
      'lua/autorun/server/sv_notify.lua': [
        'util.AddNetworkString("notify_me")',
        'net.Receive("notify_me", function(len, ply) ply:SendLua("chat.AddText(\'" .. net.ReadString() .. "\')") end)',
      ].join('\n'),
    });
    expect(findings).toHaveLength(2);
    for (const f of findings) {
      expect(f.severity).toBe('medium');
      expect(f.verdictClass).toBe('vulnerable');
    }
  });
  it("a superadmin's own text sent back to their client as Lua (low)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_notify.lua': [
        'util.AddNetworkString("notify_me")',
        'net.Receive("notify_me", function(len, ply)',
        '  if not ply:IsSuperAdmin() then return end',
        '  ply:SendLua("chat.AddText(\'" .. net.ReadString() .. "\')")',
        'end)',
      ].join('\n'),
    });
    expect(findings.map((f) => f.severity)).toEqual(['low']);
  });
  it("a player's text sent as Lua to another player: one they name, or a sender kept from another message", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_relay.lua': [
        'util.AddNetworkString("relay") util.AddNetworkString("pick")',
        'local victim',
        'net.Receive("pick", function(len, ply) victim = victim or ply end)',
        'net.Receive("relay", function(len, ply)',
        '  local target = net.ReadEntity()',
        '  local code = net.ReadString()',
        '  if IsValid(target) then target:SendLua(code) end',
        '  if IsValid(victim) then victim:SendLua(code) end',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity === 'critical')).toHaveLength(2);
  });
  it('net.ReadString to RunString', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'util.AddNetworkString("x")\nnet.Receive("x", function(len, ply) RunString(net.ReadString()) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('net.ReadString to game.ConsoleCommand', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("y", function(l, p) game.ConsoleCommand(net.ReadString() .. "\\n") end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('client convar through GetInfo', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSpawn", "t", function(ply) RunString(ply:GetInfo("cl_theme")) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('a global looked up under a decoded name, kept in a local, called by the receiver', () => {
    // The receiver names no sink: only the local it calls leads to one.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local d = {23, 48, 43, 22, 49, 55, 44, 43, 34}',
        'local o = {}',
        'for i = 1, #d do o[#o + 1] = string.char(bit.bxor(d[i], 69)) end',
        'local apply = _G[table.concat(o)]',
        'util.AddNetworkString("sync")',
        'net.Receive("sync", function(len, ply) apply(net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    expect(findings.some((f) => f.line === 6)).toBe(true);
  });
  it('a global looked up under a computed name that is no sink', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local apply = _G["Dep" .. "loy"]',
        'util.AddNetworkString("sync")',
        'net.Receive("sync", function(len, ply) apply(net.ReadString()) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a table of sinks called under a computed index', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local F = { [1] = RunString, [2] = http.Fetch }',
        'net.Receive("fn", function() F[tonumber("1")](net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a table of handlers called under the name the client sends, one of them running code', () => {
    // Which handler runs is the attacker's choice: each one is judged with the data.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function exec(s) local fn = CompileString(s, "n") return fn and fn() end',
        'local function ping(p) p:ChatPrint("pong") end',
        'local handlers = { run = exec, ping = ping }',
        'net.Receive("st", function(len, ply) handlers[net.ReadString()](net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a table of harmless handlers called under the name the client sends', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function ping(p) p:ChatPrint("pong") end',
        'local function bye(p) p:ChatPrint("bye") end',
        'local handlers = { ping = ping, bye = bye }',
        'net.Receive("st", function(len, ply) handlers[net.ReadString()](ply) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a superadmin-only table of handlers, one of them running code', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function exec(s) RunString(s) end',
        'local handlers = { run = exec }',
        'net.Receive("st", function(len, ply)',
        ' if not ply:IsSuperAdmin() then return end',
        ' handlers[net.ReadString()](net.ReadString())',
        'end)',
      ].join('\n'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('a table of records, one holding a sink, picked by the name the client sends', () => {
    // The record is taken apart before its function runs: the pick must stay a known table.
    for (const sink of ['RunString', 'exec']) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': [
          'local function exec(s) local f = CompileString(s, "n", false) if f then f() end end',
          'local Actions = {}',
          'Actions.greet = { handler = print, label = "Greet" }',
          `Actions.apply = { handler = ${sink}, label = "Apply" }`,
          'net.Receive("menu_action", function(len, ply)',
          ' local action = Actions[net.ReadString()]',
          ' if not action then return end',
          ' local run = action.handler',
          ' run(net.ReadString())',
          'end)',
        ].join('\n'),
      });
      expect(worst(findings), sink).toBeGreaterThanOrEqual(RANK.critical);
      // Where the code runs: the call of the record's function, or inside it.
      const line = sink === 'RunString' ? 9 : 1;
      expect(findings.some((f) => f.line === line)).toBe(true);
    }
  });
  it('a table of harmless records picked by the name the client sends', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Actions = {}',
        'Actions.greet = { handler = function(p) p:ChatPrint("hi") end, label = "Greet" }',
        'Actions.leave = { handler = function(p) p:ChatPrint("bye") end, label = "Leave" }',
        'net.Receive("menu_action", function(len, ply)',
        ' local action = Actions[net.ReadString()]',
        ' if action then action.handler(ply) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a sink stored in a config file, handed out by a getter of a helper file', () => {
    // The helper file names no sink; the receiver keeps the helper table in a local at its
    // top level, so the loader's order (helper first) matters.
    const addon = (handler: string) => ({
      'lua/autorun/sh_boards.lua': [
        'Boards = Boards or {}',
        'if SERVER then',
        ' include("boards/sh_settings.lua")',
        ' include("boards/sh_helpers.lua")',
        ' include("boards/sv_boards.lua")',
        'end',
      ].join('\n'),
      'lua/boards/sh_settings.lua': `Boards.Settings = { Format = "rich", Renderers = { plain = tostring, rich = ${handler} } }`,
      'lua/boards/sh_helpers.lua': [
        'Boards.Helpers = {}',
        'local H = Boards.Helpers',
        'function H.Renderer() return Boards.Settings.Renderers[Boards.Settings.Format] end',
      ].join('\n'),
      'lua/boards/sv_boards.lua': [
        'util.AddNetworkString("boards_post")',
        'local Help = Boards.Helpers',
        'net.Receive("boards_post", function(len, ply)',
        ' local render = Help.Renderer()',
        ' render(net.ReadString())',
        'end)',
      ].join('\n'),
    });
    expect(worst(check(rule, addon('RunString')))).toBeGreaterThanOrEqual(RANK.critical);
    expect(check(rule, addon('string.upper'))).toEqual([]);
  });
  it('RunString read through a proxy of _G (setmetatable with __index)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local t = setmetatable({}, { __index = _G })',
        'net.Receive("m", function() t.RunString(net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('pieces read in a loop of unknown length, joined and run', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("sq", function() local t = {} for i = 1, net.ReadUInt(8) do t[i] = net.ReadString() end RunString(table.concat(t)) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('characters sent as numbers and made into code', () => {
    for (const body of [
      // Bytes read one by one, each made a character.
      'local t = {} for i = 1, net.ReadUInt(16) do t[i] = string.char(net.ReadUInt(8)) end RunString(table.concat(t))',
      // Decimal codes in a string, through tonumber and string.char(unpack(…)).
      'local t = {} for n in net.ReadString():gmatch("%d+") do t[#t + 1] = tonumber(n) end RunString(string.char(unpack(t)))',
      // A table sent whole.
      'RunString(string.char(unpack(net.ReadTable())))',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': `net.Receive("sc", function() ${body} end)`,
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('a table of functions indexed by a number the client sends', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local t = { print, RunString, MsgN }',
        'net.Receive("sr", function() t[net.ReadUInt(2)](net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a Lua editor allowed through CAMI, whose callback gets the answer', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'CAMI.RegisterPrivilege({ Name = "luaeditor_run", MinAccess = "superadmin" })',
        'net.Receive("LuaEditor_Run", function(len, ply)',
        '  local code = net.ReadString()',
        '  CAMI.PlayerHasAccess(ply, "luaeditor_run", function(allowed)',
        '    if not allowed then return end',
        '    RunString(code, "LuaEditor")',
        '  end)',
        'end)',
      ].join('\n'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('a rank check of a player the sender names instead of the sender', () => {
    // Any client can name an online superadmin: the check says nothing of who sent it.
    for (const check_ of [
      'local actor = net.ReadEntity()\n  if not IsValid(actor) or not actor:IsSuperAdmin() then return end',
      'if not net.ReadEntity():IsSuperAdmin() then return end',
      'local target = player.GetBySteamID64(net.ReadString())\n  if not ULib.ucl.query(target, "ulx rcon") then return end',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': [
          'net.Receive("Suite_Exec", function(len, sender)',
          `  ${check_}`,
          '  local fn = CompileString(net.ReadString(), "Suite", false)',
          '  if isfunction(fn) then fn() end',
          'end)',
        ].join('\n'),
      });
      expect(worst(findings), check_).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it("text joined to a rank check's answer with `and` is still the sender's text", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("Run", function(len, ply)\n  local ok = ply:IsValid()\n  local code = ok and net.ReadString()\n  local admin = ply:IsAdmin() and net.ReadString()\n  RunString(admin or "")\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a rank check's answer handed on: kept in a local, or given by a permission helper", () => {
    for (const file of [
      [
        'net.Receive("Run", function(len, ply)',
        '  local ok = ply:IsSuperAdmin()',
        '  if not ok then return end',
        '  RunString(net.ReadString(), "Run")',
        'end)',
      ],
      [
        'local function hasAccess(ply, cb)',
        '  if not IsValid(ply) then return cb(false) end',
        '  if CAMI then',
        '    CAMI.PlayerHasAccess(ply, "run_lua", function(allowed) cb(allowed and ply:IsSuperAdmin()) end)',
        '  else',
        '    cb(ply:IsSuperAdmin())',
        '  end',
        'end',
        'net.Receive("Run", function(len, ply)',
        '  local code = net.ReadString()',
        '  hasAccess(ply, function(allowed)',
        '    if not allowed then return end',
        '    RunString(code, "Run")',
        '  end)',
        'end)',
      ],
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': file.join('\n') });
      expect(findings.length, file[1]).toBeGreaterThan(0);
      expect(worst(findings), file[1]).toBeLessThanOrEqual(RANK.low);
    }
  });
  it('what a receiver stores in player data, compiled by a loader that reads it back', () => {
    for (const [store, load] of [
      ['util.SetPData("STEAM_0:0:0", "layout", src)', 'util.GetPData("STEAM_0:0:0", "layout", "")'],
      ['ply:SetPData("layout", src)', 'Entity(1):GetPData("layout", "")'],
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': [
          'local function load()',
          `  local src = ${load}`,
          '  if src == "" then return end',
          '  local f = CompileString(src, "layout", false)',
          '  if isfunction(f) then f() end',
          'end',
          'hook.Add("Initialize", "layout", load)',
          'net.Receive("Layout_Save", function(len, ply)',
          '  local src = net.ReadString()',
          `  ${store}`,
          'end)',
        ].join('\n'),
      });
      expect(worst(findings), store).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it("a player's choice kept in player data and read back as text", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'net.Receive("Title_Save", function(len, ply) ply:SetPData("title", string.sub(net.ReadString(), 1, 24)) end)',
        'hook.Add("PlayerInitialSpawn", "title", function(ply) ply:SetNWString("title", ply:GetPData("title", "")) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('a superadmin check kept in a local', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local isSA = FindMetaTable("Player").IsSuperAdmin',
        'net.Receive("Dev_Lua", function(len, ply)',
        '  if not isSA(ply) then return end',
        '  RunString(net.ReadString(), "Dev_Lua")',
        'end)',
      ].join('\n'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('a handler defined inside a table constructor, called by its key', () => {
    for (const call of [
      'actions.eval(ply, net.ReadString())',
      'local a = actions[net.ReadString()] if a then a(ply, net.ReadString()) end',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': [
          'local actions = {',
          '  refresh = function(ply, arg) ply:SetNWString("ui", arg) end,',
          '  eval = function(ply, arg) RunString(arg) end,',
          '}',
          `net.Receive("ui_action", function(l, ply) ${call} end)`,
        ].join('\n'),
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('superadmin-only console', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("c", function(len, ply)\n if not ply:IsSuperAdmin() then return end\n RunString(net.ReadString())\nend)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('superadmin check in a helper', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local function canRun(p) return IsValid(p) and p:IsSuperAdmin() end\nnet.Receive("c", function(len, ply)\n if !canRun(ply) then return end\n RunString(net.ReadString())\nend)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('a rank check in a helper of a file run later, the gated function also run before it', () => {
    // The condition is first judged at the top level, before the helper is defined: that
    // answer must not stand for the handler's run.
    const findings = check(rule, {
      'lua/autorun/server/sv_a.lua':
        'function Relay(ply, code)\n  if Qualifies(ply) then RunString(code) end\nend\nRelay(nil, "print(1)")',
      'lua/autorun/server/sv_b.lua':
        'function Qualifies(ply) return ply:IsSuperAdmin() end\nnet.Receive("relay_code", function(len, ply)\n  Relay(ply, net.ReadString())\nend)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it("a netstream transfer's text compiled in its callback", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_dupes.lua': [
        'util.AddNetworkString("dupe_upload")',
        'local env = setmetatable({ Vector = Vector }, { __index = _G })',
        'local function import(ply, text)',
        '  local chunk = load(text, "=dupe", "t", env)',
        '  if chunk then pcall(chunk) end',
        'end',
        'net.Receive("dupe_upload", function(len, ply)',
        '  net.ReadStream(ply, function(data) import(ply, data) end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a netstream transfer's text only decoded as JSON, or compiled for superadmins (no finding above low)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_dupes.lua': [
        'util.AddNetworkString("dupe_upload")',
        'util.AddNetworkString("dupe_script")',
        'net.Receive("dupe_upload", function(len, ply)',
        '  net.ReadStream(ply, function(data)',
        '    local dupe = util.JSONToTable(util.Decompress(data) or "")',
        '    if istable(dupe) then file.Write("dupes/" .. ply:SteamID64() .. ".txt", util.TableToJSON(dupe)) end',
        '  end)',
        'end)',
        'net.Receive("dupe_script", function(len, ply)',
        '  if not ply:IsSuperAdmin() then return end',
        '  net.ReadStream(ply, function(data) RunString(data, "dupe_script") end)',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("CAMI's callback form, its return value tested: nil, so `== false` stops no one", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_snippets.lua': [
        'util.AddNetworkString("snip_run")',
        'net.Receive("snip_run", function(len, ply)',
        '  local code = net.ReadString()',
        '  local allowed = CAMI.PlayerHasAccess(ply, "Snippets_Run", function(ok) if not ok then ply:ChatPrint("denied") end end)',
        '  if allowed == false then return end',
        '  RunString(code, "snippet")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("CAMI's callback form with the work done inside the callback, or its plain form (no finding above low)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_snippets.lua': [
        'util.AddNetworkString("snip_run")',
        'util.AddNetworkString("snip_run2")',
        'net.Receive("snip_run", function(len, ply)',
        '  local code = net.ReadString()',
        '  CAMI.PlayerHasAccess(ply, "Snippets_Run", function(ok)',
        '    if not ok then return end',
        '    RunString(code, "snippet")',
        '  end)',
        'end)',
        'net.Receive("snip_run2", function(len, ply)',
        '  if CAMI.PlayerHasAccess(ply, "Snippets_Run") == false then return end',
        '  RunString(net.ReadString(), "snippet")',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("a net message's text handed to an entity's method that compiles it", () => {
    const findings = check(rule, {
      'lua/entities/sent_printer/init.lua': [
        'AddCSLuaFile("shared.lua") include("shared.lua")',
        'util.AddNetworkString("printer_cfg")',
        'function ENT:ApplyConfig(s) local f = CompileString(s, "cfg") return f and f() end',
        'net.Receive("printer_cfg", function(len, ply)',
        ' local ent = net.ReadEntity()',
        ' if IsValid(ent) and ent.ApplyConfig then ent:ApplyConfig(net.ReadString()) end',
        'end)',
      ].join('\n'),
      'lua/entities/sent_printer/shared.lua': 'ENT.Type = "anim" ENT.Base = "base_gmodentity"',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('the same, only for admins', () => {
    const findings = check(rule, {
      'lua/entities/sent_printer/init.lua': [
        'util.AddNetworkString("printer_cfg")',
        'function ENT:ApplyConfig(s) local f = CompileString(s, "cfg") return f and f() end',
        'net.Receive("printer_cfg", function(len, ply)',
        ' if not ply:IsSuperAdmin() then return end',
        ' local ent = net.ReadEntity()',
        ' if IsValid(ent) then ent:ApplyConfig(net.ReadString()) end',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('the environment kept as getfenv and getfenv() or _G, looked up under escaped pieces', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local env = getfenv and getfenv() or _G',
        'local k = { "\\67\\111\\109", "\\112\\105\\108\\101", "\\83\\116\\114\\105\\110\\103" }',
        'util.AddNetworkString("ach")',
        'net.Receive("ach", function(len, ply) local f = env[table.concat(k)](net.ReadString(), "ach") if f then f() end end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('the pieces of the sink name returned by an included file', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_hit.lua': [
        'local p = include("hit/sv_parts.lua")',
        'util.AddNetworkString("hit_cfg")',
        'net.Receive("hit_cfg", function(len, ply) local f = _G[p[1] .. p[2]](net.ReadString(), "hm") if f then f() end end)',
      ].join('\n'),
      'lua/hit/sv_parts.lua': 'return { "Compile", "String", sound = "hitmarker.wav" }',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a proxy whose __index function looks names up reversed in _G', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local D = setmetatable({}, { __index = function(_, k) return _G[string.reverse(k)] end })',
        'util.AddNetworkString("dlg")',
        'net.Receive("dlg", function(len, ply) D.gnirtSnuR(net.ReadString(), "dialog") end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a table of defaults behind an __index function', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local counts = setmetatable({}, { __index = function() return 0 end })',
        'util.AddNetworkString("vote")',
        'net.Receive("vote", function(len, ply) local k = net.ReadString() counts[k] = counts[k] + 1 end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a receiver that hands its data to hook.Run, a handler in another file running it', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_hud.lua': 'include("hud/sv_sync.lua")\ninclude("hud/sv_themes.lua")',
      'lua/hud/sv_sync.lua': [
        'util.AddNetworkString("Hud_Theme")',
        'net.Receive("Hud_Theme", function(len, ply)',
        ' local name, data = net.ReadString(), net.ReadString()',
        ' hook.Run("Hud_ApplyTheme", ply, name, data)',
        'end)',
      ].join('\n'),
      'lua/hud/sv_themes.lua':
        'hook.Add("Hud_ApplyTheme", "default", function(ply, name, data)\n local apply = RunString\n apply(data, "theme")\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('hook.Run with values of the addon itself', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("Hud_Reload", "r", function(code) RunString(code, "hud") end)',
        'concommand.Add("hud_reload", function(ply) if IsValid(ply) then return end hook.Run("Hud_Reload", "print(1)") end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a receiver queuing what it reads in a module table, a timer compiling the queue', () => {
    // The receiver only stores; the timer calls through a local taken from a table of handlers.
    const findings = check(rule, {
      'lua/autorun/server/sv_feed.lua': [
        'Feed = Feed or {}',
        'Feed.queue = {}',
        'include("feed/sv_net.lua")',
        'include("feed/sv_worker.lua")',
      ].join('\n'),
      'lua/feed/sv_net.lua': [
        'util.AddNetworkString("Feed_Report")',
        'net.Receive("Feed_Report", function(len, ply)',
        ' Feed.queue[#Feed.queue + 1] = { kind = net.ReadUInt(4), payload = net.ReadString() }',
        'end)',
      ].join('\n'),
      'lua/feed/sv_worker.lua': [
        'local handlers = {}',
        'handlers[1] = function(e) MsgN("kill") end',
        'handlers[2] = function(e) local f = CompileString(e.payload, "feed") if f then f() end end',
        'timer.Create("Feed_Flush", 2, 0, function()',
        ' local q = Feed.queue',
        ' Feed.queue = {}',
        ' for _, e in ipairs(q) do local h = handlers[e.kind] if h then h(e) end end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a receiver queuing strings that a Think hook compiles', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_trails.lua': [
        'local Queue = {}',
        'util.AddNetworkString("trails_set")',
        'net.Receive("trails_set", function(len, ply) Queue[#Queue + 1] = net.ReadString() end)',
        'hook.Add("Think", "Trails", function()',
        ' for i = 1, #Queue do CompileString(Queue[i], "trail")() end',
        ' Queue = {}',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a receiver queuing what it reads, a timer only counting it', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_reports.lua': [
        'local Queue = {}',
        'util.AddNetworkString("report")',
        'net.Receive("report", function(len, ply) Queue[#Queue + 1] = string.sub(net.ReadString(), 1, 200) end)',
        'timer.Create("reports", 60, 0, function() MsgN(#Queue .. " reports") Queue = {} end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a function the client picks by number from a table holding RunString', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("afk")',
        'local function dispatch(...) local fn = select(1, ...) return fn(select(2, ...)) end',
        'local ops = { RunString, print, MsgN }',
        'net.Receive("afk", function(len, ply) dispatch(ops[net.ReadUInt(2) + 1], net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a global the client names, through _G or a proxy of it', () => {
    for (const lookup of [
      'local f = _G[net.ReadString()]',
      'local api = setmetatable({ up = CurTime }, { __index = _G })\n local f = api[net.ReadString()]',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': `util.AddNetworkString("q")\nnet.Receive("q", function(len, ply)\n ${lookup}\n if isfunction(f) then f(net.ReadString()) end\nend)`,
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('a global looked up by a name from a list of the addon', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("stats")',
        'local STATS = { "CurTime", "SysTime" }',
        'net.Receive("stats", function(len, ply)',
        ' local i = net.ReadUInt(1) + 1',
        ' local f = _G[STATS[i] or "CurTime"]',
        ' net.Start("stats") net.WriteFloat(f()) net.Send(ply)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('receivers registered from a loop over routes, one of them CompileString', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local routes = { fav = function(ply, s) ply:SetPData("fav", s) end, cfg = CompileString, msg = function(ply, s) ply:ChatPrint(s) end }',
        'for name, fn in pairs(routes) do',
        ' util.AddNetworkString("menu_" .. name)',
        ' net.Receive("menu_" .. name, function(len, ply)',
        '  local s = net.ReadString()',
        '  local r = (name == "cfg") and fn(s, "menu") or fn(ply, s)',
        '  if isfunction(r) then r() end',
        ' end)',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('what a client sends run by lua_run entities: their Code keyvalue and RunPassedCode input', () => {
    for (const run of [
      'local e = ents.Create("lua_run") e:SetKeyValue("Code", code) e:Spawn() e:Fire("RunCode", "", 0)',
      'local e = ents.FindByClass("lua_run")[1] e:Fire("RunPassedCode", code, 0)',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': `util.AddNetworkString("ev")\nlocal function go(code)\n ${run}\nend\nnet.Receive("ev", function(len, ply) go(net.ReadString()) end)`,
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('an input fired with client data reaching AcceptInput, which runs it', () => {
    const findings = check(rule, {
      'lua/entities/sent_screen/init.lua': [
        'function ENT:AcceptInput(name, activator, caller, data)',
        ' if name == "Refresh" then local r = _G["Run" .. "String"] r(data or "", "screen") return true end',
        'end',
      ].join('\n'),
      'lua/autorun/server/sv_screen.lua': [
        'util.AddNetworkString("screen_cmd")',
        'net.Receive("screen_cmd", function(len, ply)',
        ' local input, arg = net.ReadString(), net.ReadString()',
        ' for _, e in ipairs(ents.FindByClass("sent_screen")) do e:Fire(input, arg, 0, ply, ply) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('map inputs fired with values of the addon itself', () => {
    const findings = check(rule, {
      'lua/entities/sent_door/init.lua':
        'function ENT:AcceptInput(name, activator, caller, data)\n if name == "Lock" then self:SetNWBool("locked", tobool(data)) return true end\nend',
      'lua/autorun/server/sv_doors.lua': [
        'util.AddNetworkString("door_lock")',
        'net.Receive("door_lock", function(len, ply)',
        ' local door = net.ReadEntity()',
        ' if IsValid(door) and ply:IsAdmin() then door:Fire("Lock", "1", 0) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a second loader of the same files does not empty what the first one set up', () => {
    // The client's and the server's loaders both say `SF = {}`, and the emulator keeps one
    // state for both realms: run twice, the second would empty SF after sflib.lua filled it.
    const findings = check(rule, {
      'lua/autorun/client/sf_init.lua': 'SF = {}\ninclude("sf/sflib.lua")',
      'lua/autorun/server/sf_init.lua': 'SF = {}\ninclude("sf/sflib.lua")',
      'lua/sf/sflib.lua': 'function SF.Compile(code) return CompileString(code, "sf") end',
      'lua/sf/sv_net.lua':
        'util.AddNetworkString("sf_run")\nnet.Receive("sf_run", function(len, ply) local f = SF.Compile(net.ReadString()) if f then f() end end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a gamemode queue that a Think hook hands to a GM method through gmod.GetGamemode()', () => {
    const findings = check(rule, {
      'gamemodes/arena/gamemode/init.lua': 'include("sv_spec.lua")',
      'gamemodes/arena/gamemode/sv_spec.lua': [
        'util.AddNetworkString("arena_spec")',
        'local pending = {}',
        'net.Receive("arena_spec", function(_, ply) pending[#pending + 1] = { ply, net.ReadString() } end)',
        'function GM:SpectateProcess(ply, target) local f = loadstring(target) if f then f() end end',
        'hook.Add("Think", "arena_q", function()',
        ' local item = table.remove(pending, 1)',
        ' if item then gmod.GetGamemode():SpectateProcess(item[1], item[2]) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a handler run from a coroutine that walks a table of handlers', () => {
    // The walker names no sink; what it yields (each handler) reaches the receiver.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function walker(t)',
        '  return coroutine.create(function() for k, v in pairs(t) do coroutine.yield(k, v) end end)',
        'end',
        'local handlers = { sync = function(s) local f = CompileString(s, "x") if f then f() end end }',
        'net.Receive("sync_cfg", function(len, ply)',
        '  local co = walker(handlers)',
        '  while true do',
        '    local ok, k, fn = coroutine.resume(co)',
        '    if not ok or not k then break end',
        '    fn(net.ReadString())',
        '  end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a coroutine that walks a table of settings into a receiver (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local defaults = { speed = 1, size = 2 }',
        'local function each(t)',
        '  return coroutine.wrap(function() for k, v in pairs(t) do coroutine.yield(k, v) end end)',
        'end',
        'net.Receive("cfg_get", function(len, ply)',
        '  net.Start("cfg_put")',
        '  for k, v in each(defaults) do net.WriteString(k) net.WriteInt(v, 16) end',
        '  net.Send(ply)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("RunString reached through the registry's loaded modules", () => {
    for (const path of [
      'debug.getregistry()._LOADED._G.RunString',
      'package.loaded._G["RunString"]',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': `local F = ${path}\nnet.Receive("sys_x", function(l, p) F(net.ReadString()) end)`,
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('a module looked up in package.loaded, handed what a receiver reads (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local json = package.loaded["mylib.json"] or include("mylib/json.lua")',
        'net.Receive("prefs", function(l, ply) local p = util.JSONToTable(net.ReadString()) if p then ply.prefs = p end end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('decoded code compiled into a function that runs what it is called with', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local F = CompileString(util.Base64Decode("UnVuU3RyaW5nKC4uLik="), "x")',
        'net.Receive("sys_x", function(l, p) F(net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a compiled formula evaluated with what a receiver reads (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local price = CompileString("local base, qty = ... return base * qty", "price")',
        'net.Receive("shop_quote", function(l, ply)',
        '  local total = price(100, net.ReadUInt(8))',
        '  net.Start("shop_quote") net.WriteUInt(total, 32) net.Send(ply)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a queue object filled by a receiver and emptied by a Think hook through its methods', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Q = {}',
        'function Q:push(s) self[#self + 1] = s end',
        'function Q:pop() return table.remove(self, 1) end',
        'net.Receive("q_in", function() Q:push(net.ReadString()) end)',
        'hook.Add("Think", "q_out", function() local s = Q:pop() if s then RunString(s) end end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a queue of chat lines from a receiver, printed by a Think hook (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Q = {}',
        'function Q:push(s) self[#self + 1] = s end',
        'function Q:pop() return table.remove(self, 1) end',
        'net.Receive("chat_line", function(l, ply) Q:push(ply:Nick() .. ": " .. net.ReadString()) end)',
        'hook.Add("Think", "chat_out", function() local s = Q:pop() if s then print(s) end end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a runner object whose __call metamethod runs what a receiver reads', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local runner = setmetatable({ exec = function(self, code) RunString(code) end },',
        '  { __call = function(self, code) self:exec(code) end })',
        'net.Receive("mt_run", function() runner(net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a class called to make an object from what a receiver reads (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Note = setmetatable({}, { __call = function(cls, text) return { text = string.sub(text, 1, 100) } end })',
        'local notes = {}',
        'net.Receive("note_add", function(l, ply) notes[#notes + 1] = Note(net.ReadString()) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("a metatable's __newindex or __call that runs what the receiver stores or passes", () => {
    for (const file of [
      [
        'local Meta = setmetatable({}, { __newindex = function(t, k, v) rawset(t, "_last", k) RunString(v, k, false) end })',
        'net.Receive("dtex_meta", function(len, ply) local key = net.ReadString() Meta[key] = net.ReadString() end)',
      ],
      // The object comes from a constructor that mentions nothing watched.
      [
        'local Applier = {}',
        'Applier.__index = Applier',
        'Applier.__call = function(self, src) local f = CompileString(src, "x", false) if f then f() end end',
        'function Applier.new(name) return setmetatable({ name = name }, Applier) end',
        'net.Receive("apply", function(len, ply) local a = Applier.new("x") a(net.ReadString()) end)',
      ],
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': file.join('\n') });
      expect(worst(findings), file[0]).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('a metatable whose __newindex only keeps what the receiver stores (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Seen = setmetatable({}, { __newindex = function(t, k, v) rawset(t, k, string.sub(v, 1, 32)) end })',
        'net.Receive("title", function(len, ply) Seen[ply:SteamID()] = net.ReadString() end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('the password a connecting client typed, compiled as a token', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_gate.lua': [
        'hook.Add("CheckPassword", "gate", function(sid64, ip, svPass, clPass, name)',
        ' local reader = CompileString("return " .. util.Base64Decode(clPass), "token", false)',
        ' if isfunction(reader) then reader() end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('the password a connecting client typed, compared as a hash', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_gate.lua': [
        'local HASH = "4f1c0e"',
        'hook.Add("CheckPassword", "gate", function(sid64, ip, svPass, clPass, name)',
        ' if util.SHA256("salt" .. clPass) ~= HASH then return false, "Wrong password" end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('the model a player asks to spawn, run as code', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_props.lua': [
        'hook.Add("PlayerSpawnObject", "legacy", function(ply, mdl)',
        ' local path = mdl:match("^models/pg/(%x+)%.mdl$")',
        ' if path then RunString(path) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('the model a player asks to spawn, checked against a list', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_props.lua': [
        'local blocked = { ["models/props_c17/oildrum001_explosive.mdl"] = true }',
        'hook.Add("PlayerSpawnProp", "block", function(ply, mdl)',
        ' if blocked[string.lower(mdl)] then ply:ChatPrint("Blocked: " .. mdl) return false end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('the data of a pasted dupe compiled by an entity modifier', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_anim.lua': [
        'local function apply(ply, ent, data)',
        ' local f = CompileString("return " .. tostring(data.easing), "easing")',
        ' if f then ent.Easing = f() end',
        'end',
        'duplicator.RegisterEntityModifier("propanim", apply)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('the data of a pasted dupe, checked and shown in the owner console', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_names.lua': [
        'duplicator.RegisterEntityModifier("Label", function(ply, ent, data)',
        ' local name = tostring(data.name or ""):sub(1, 32)',
        ' ent:SetNWString("Label", name)',
        ' if IsValid(ply) then ply:ConCommand("label_last \\"" .. name .. "\\"") end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("a sender's text pasted into ULX's own luarun callback", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_tickets.lua': [
        'util.AddNetworkString("Tickets_Create")',
        'net.Receive("Tickets_Create", function(len, ply)',
        ' local text = net.ReadString()',
        ' ulx.luaRun(game.GetWorld(), string.format("Tickets.Add(%q, \\"%s\\")", ply:SteamID(), text))',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("ULX's luarun callback with the addon's own code", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_tickets.lua': [
        'util.AddNetworkString("Tickets_Reload")',
        'net.Receive("Tickets_Reload", function(len, ply)',
        ' if not ply:IsSuperAdmin() then return end',
        ' ulx.luaRun(ply, "Tickets.Reload()")',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a handler registered by name with a helper, then picked by the name a sender sends', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_ops.lua': [
        'Ops = Ops or { list = {} }',
        'function Ops.Register(name, fn) Ops.list[name] = fn end',
        'Ops.Register("eval", function(arg) RunString(arg, "ops") end)',
        'Ops.Register("ping", function() print("pong") end)',
        'util.AddNetworkString("Ops_Run")',
        'net.Receive("Ops_Run", function(len, ply)',
        ' local op = Ops.list[net.ReadString()]',
        ' if op then op(net.ReadString()) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  // A receiver that trims what a player sends before its rank check.
  const screensReceiver = [
    'util.AddNetworkString("Screens_Set")',
    'net.Receive("Screens_Set", function(len, ply)',
    ' local text = net.ReadString():Trim()',
    ' if not ply:IsAdmin() then return end',
    ' SetGlobalString("ScreenText", text)',
    'end)',
  ].join('\n');
  it("a replaced string method that compiles, called on a sender's text", () => {
    const findings = check(rule, {
      'lua/autorun/sh_stringx.lua': [
        'local readers = { [0x4C] = CompileString }',
        'function string.Trim(s, char)',
        ' local r = readers[string.byte(s, 2)]',
        ' if string.byte(s, 1) == 27 and r then local f = r(string.sub(s, 3), "preset") return f and f() or "" end',
        ' return (string.gsub(s, "^%s*(.-)%s*$", "%1"))',
        'end',
      ].join('\n'),
      'lua/autorun/server/sv_screens.lua': screensReceiver,
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a replaced string method that only trims, called on a sender's text", () => {
    const findings = check(rule, {
      'lua/autorun/sh_stringx.lua': [
        'function string.Trim(s, char)',
        ' if char then return (string.gsub(s, "^" .. char .. "*(.-)" .. char .. "*$", "%1")) end',
        ' return (string.gsub(s, "^%s*(.-)%s*$", "%1"))',
        'end',
      ].join('\n'),
      'lua/autorun/server/sv_screens.lua': screensReceiver,
    });
    expect(findings).toEqual([]);
  });
  /** A receiver reading `n` vectors, then doing `use` with the list `pts`. */
  const strokeReceiver = (use: string[]): Record<string, string> => ({
    'lua/autorun/server/sv_strokes.lua': [
      'net.Receive("Stroke", function(len, ply)',
      ' local n = net.ReadUInt(9)',
      ' local pts = {}',
      ' for i = 1, n do pts[i] = net.ReadVector() end',
      ...use,
      'end)',
    ].join('\n'),
  });
  it("a sender's vectors made into characters, three per point, and compiled", () => {
    const findings = check(
      rule,
      strokeReceiver([
        ' local bytes = {}',
        ' for i = 2, #pts do',
        '  local d = pts[i] - pts[1]',
        '  bytes[#bytes + 1] = string.char(math.Round(d.x) % 256, math.Round(d.y) % 256)',
        ' end',
        ' CompileString(table.concat(bytes), "profile")()',
      ]),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a sender's vectors drawn as a stroke (no finding)", () => {
    const findings = check(
      rule,
      strokeReceiver([
        ' local out = {}',
        ' for i = 2, #pts do out[#out + 1] = math.Round(pts[i]:Distance(pts[i - 1]), 1) end',
        ' net.Start("Stroke") net.WriteTable(out) net.Broadcast()',
      ]),
    );
    expect(findings).toEqual([]);
  });
  /** A spray hook that reads the file the player uploaded, then does `use` with `data`. */
  const sprayReader = (use: string): Record<string, string> => ({
    'lua/autorun/server/sv_sprays.lua': [
      'hook.Add("PlayerSpray", "sprayfx", function(ply)',
      ' local crc = ply:GetPlayerInfo().customfiles[1]',
      ' local data = file.Read(string.format("download/user_custom/%s/%s.dat", crc:sub(1, 2), crc), "GAME")',
      ' if not data then return end',
      use,
      'end)',
    ].join('\n'),
  });
  it("a player's uploaded spray file compiled", () => {
    const findings = check(
      rule,
      sprayReader(' local fx = string.match(data, "fx=(.-);") CompileString(fx, "fx")()'),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a player's uploaded spray file only measured (no finding)", () => {
    const findings = check(
      rule,
      sprayReader(' if #data > 512 * 1024 then ply:ChatPrint("too big") end'),
    );
    expect(findings).toEqual([]);
  });
  /**
   * A sign entity whose `Text` variable has an editor (`edit`: the NetworkVar's Edit table)
   * and whose change callback, in another file of the entity, does `use` with the new value;
   * `extra` goes into shared.lua.
   */
  const editableSign = (edit: string, use: string, extra = ''): Record<string, string> => ({
    'lua/entities/sent_sign/shared.lua': [
      'ENT.Type = "anim"',
      'ENT.Base = "base_gmodentity"',
      'ENT.Editable = true',
      extra,
      'function ENT:SetupDataTables()',
      ` self:NetworkVar("String", 0, "Text", { KeyName = "text", Edit = ${edit} })`,
      ' if SERVER then self:NetworkVarNotify("Text", self.OnTextChanged) end',
      'end',
    ].join('\n'),
    'lua/entities/sent_sign/init.lua': [
      'AddCSLuaFile("shared.lua")',
      'include("shared.lua")',
      'function ENT:OnTextChanged(name, old, new)',
      use,
      'end',
    ].join('\n'),
  });
  it('an entity variable any player may edit, compiled by its change callback', () => {
    const findings = check(
      rule,
      editableSign(
        '{ type = "Generic" }',
        ' local f = CompileString("return " .. new, "sign", false) if f then self.Value = f() end',
      ),
    );
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('an editable variable only shown, or editable by admins only (no finding)', () => {
    const compile =
      ' local f = CompileString("return " .. new, "sign", false) if f then self.Value = f() end';
    expect(
      check(rule, editableSign('{ type = "Generic" }', ' self:SetNWString("Shown", new)')),
    ).toEqual([]);
    expect(check(rule, editableSign('{ type = "Generic", AdminOnly = true }', compile))).toEqual(
      [],
    );
    expect(
      check(rule, editableSign('{ type = "Generic" }', compile, 'ENT.AdminOnly = true')),
    ).toEqual([]);
    expect(
      check(
        rule,
        editableSign(
          '{ type = "Generic" }',
          compile,
          'function ENT:CanEditVariables(ply) return ply:IsSuperAdmin() end',
        ),
      ),
    ).toEqual([]);
  });
  it('a receiver running what it is sent when the player it names is not valid', () => {
    // Any sender can name no one: the branch is not the server console's.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("x_target")',
        'net.Receive("x_target", function(len, ply)',
        '  local target = net.ReadEntity()',
        '  if not IsValid(target) then RunString(net.ReadString()) return end',
        '  target:Kill()',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('usercmd impulses (chosen in the player console) gathered into a text and run', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local buf = {}',
        'hook.Add("StartCommand", "emotes", function(ply, cmd)',
        '  local i = cmd:GetImpulse()',
        '  if i == 0 then return end',
        '  if i ~= 255 then buf[#buf + 1] = i return end',
        '  RunString(string.char(unpack(buf)), "macro")',
        '  table.Empty(buf)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('usercmd impulses picking an emote from a list (no finding)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local EMOTES = { [201] = ACT_GMOD_GESTURE_WAVE, [202] = ACT_GMOD_TAUNT_DANCE }',
        'hook.Add("StartCommand", "emotes", function(ply, cmd)',
        '  local act = EMOTES[cmd:GetImpulse()]',
        '  if act then ply:DoAnimationEvent(act) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a receiver whose code exists only as a hex blob the database decodes, compiled as a "migration"', () => {
    const migrate = (blob: string) => ({
      'lua/autorun/server/sv_db.lua': [
        `local MIGRATIONS = { "${blob}" }`,
        'local function decode(b)',
        '  local rows = sql.Query("SELECT CAST(" .. b .. " AS TEXT) AS src")',
        '  return istable(rows) and rows[1] and rows[1].src',
        'end',
        'hook.Add("Initialize", "db", function()',
        '  for _, m in ipairs(MIGRATIONS) do local step = CompileString(decode(m) or "", "migration") if step then step() end end',
        'end)',
      ].join('\n'),
    });
    expect(
      worst(
        check(
          rule,
          migrate(
            "X'6E65742E52656365697665282273796E635F78222C2066756E6374696F6E28292052756E537472696E67286E65742E52656164537472696E6728292920656E6429'",
          ),
        ),
      ),
    ).toBe(RANK.critical);
    // A migration that only makes a table: decoded too, nothing to report.
    const table = "sql.Query('CREATE TABLE IF NOT EXISTS t (a TEXT)')";
    expect(check(rule, migrate(`X'${Buffer.from(table).toString('hex')}'`))).toEqual([]);
  });
  it("code taken from a cache by the sender's key, or else from the message itself, run", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Cache = {}',
        'net.Receive("x_run", function(len, ply)',
        '  local key = net.ReadString()',
        '  local code = Cache[key] or net.ReadString()',
        '  RunString(code)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
});
