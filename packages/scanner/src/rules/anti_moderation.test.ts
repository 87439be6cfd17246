// Valid and invalid cases of the `anti_moderation` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './anti_moderation.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('anti_moderation', () => {
  it('unban loop on a literal ID', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'timer.Create("u", 5, 0, function() ULib.unban("STEAM_0:1:1234567") end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('host_writeid removed', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'concommand.Remove("host_writeid")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('ordinary ban command', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("myban", function(ply, c, a) if not ply:IsAdmin() then return end ULib.ban(player.GetBySteamID(a[1]), 0) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('ULib.ban replaced, inside a hook, to spare one SteamID', () => {
    // The replacement names nothing watched: its body is read only when it is judged.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("InitPostEntity", "r", function()',
        '  local protect = { ["STEAM_0:1:71650293"] = true }',
        '  local oban = ULib.ban',
        '  ULib.ban = function(ply, ...) if IsValid(ply) and protect[ply:SteamID()] then return end return oban(ply, ...) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
});
