// Valid and invalid cases of the `backdoor_netname` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './backdoor_netname.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('backdoor_netname', () => {
  it('known name with a dangerous handler', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'util.AddNetworkString("Sandbox_ArmDupe")\nnet.Receive("Sandbox_ArmDupe", function(l, p) RunString(net.ReadString()) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('honeypot banning the sender through the admin mod', () => {
    // The ban is a console command: the sanction itself, not a danger.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'for _, n in ipairs({ "Fix_Keypads", "BOOST_FPS" }) do',
        '  util.AddNetworkString(n)',
        '  net.Receive(n, function(_, ply) RunConsoleCommand("ulx", "banid", ply:SteamID(), "0", "exploit") end)',
        'end',
      ].join('\n'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('honeypot banning the sender', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("memeDoor", function(l, ply) ply:Ban(0, false) ply:Kick("exploit") end)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('one honeypot registered from a loop over several backdoor names', () => {
    // Each name's closure runs; the bans of the other names are sanctions too, not dangers.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'for _, n in ipairs({ "Fix_Keypads", "BOOST_FPS", "rconadmin" }) do',
        ' util.AddNetworkString(n)',
        ' net.Receive(n, function(_, ply) RunConsoleCommand("ulx", "banid", ply:SteamID(), "0", "backdoor net " .. n) end)',
        'end',
      ].join('\n'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
});
