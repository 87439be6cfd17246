// Condition plans: a condition's tree is walked once, and only its questions about the
// emulation's state are asked again each time it is judged.
import { describe, expect, it } from 'vitest';
import type { Expression } from '../lua/ast.js';
import { parseLua } from '../lua/index.js';
import { loadThreatIntel } from '../intel/index.js';
import { classifyCondition, judgePlan, planCondition } from './guards.js';
import { analyzeAddon } from './index.js';

/** The condition of `if <cond> then end`. */
function condition(cond: string): Expression {
  const st = parseLua(`if ${cond} then end`).chunk.body[0]!;
  if (st.type !== 'IfStatement') throw new Error('not an if');
  return st.clauses[0]!.condition!;
}

/** The source text of each base a question was asked about, in order. */
function asked(cond: Expression, answer: (text: string) => boolean) {
  const seen: string[] = [];
  const text = (e: Expression) =>
    e.type === 'Identifier' ? e.name : e.type === 'MemberExpression' ? e.identifier.name : '?';
  const ask = (e: Expression) => {
    seen.push(text(e));
    return answer(text(e));
  };
  return { cls: judgePlan(planCondition(cond), ask, ask), seen };
}

describe('condition plans', () => {
  it('fixes the class of a condition that asks nothing about the state', () => {
    const plan = planCondition(condition('ply:IsSuperAdmin() and Config.Enabled'));
    // (The chain's base is named last, and its name wins.)
    expect(plan.fixed).toEqual({ guard: 'IsSuperAdmin', config: 'Config' });
    expect(plan.steps).toEqual([]);
  });

  it('asks about a helper only while no guard is set, in the walk order', () => {
    // The walk meets `canManage(ply)` first (last pushed), then `ply:IsAdmin()`.
    const cond = condition('ply:IsAdmin() or canManage(ply)');
    const yes = asked(cond, () => true);
    expect(yes.cls).toEqual({ guard: 'canManage() (checks rank)' });
    expect(yes.seen).toEqual(['canManage']);
    const no = asked(cond, () => false);
    expect(no.cls).toEqual({ guard: 'IsAdmin' });
    expect(
      classifyCondition(
        cond,
        () => false,
        () => false,
      ),
    ).toEqual(no.cls);
  });

  it('leaves out a question once a guard found in the tree comes first', () => {
    const cond = condition('canManage(ply) or ply:IsAdmin()');
    const r = asked(cond, () => true);
    expect(r.cls).toEqual({ guard: 'IsAdmin' });
    expect(r.seen).toEqual([]);
  });

  it('asks whether a table holds literal IDs for an identity look-up', () => {
    const cond = condition('table.HasValue(allowed, ply:SteamID()) or vips[ply:SteamID64()]');
    expect(asked(cond, (t) => t === 'vips').cls).toEqual({ trigger: 'table[SteamID64()]' });
    expect(asked(cond, (t) => t === 'allowed').cls).toEqual({
      trigger: 'table.HasValue(…, SteamID())',
    });
    expect(asked(cond, () => false).cls).toEqual({});
  });

  it('judges a condition again when the table it reads changed between two runs', () => {
    const text = [
      'local allowed = {}',
      'local function gate(ply, code)',
      '  if table.HasValue(allowed, ply:SteamID()) then RunString(code) end',
      'end',
      'gate(Entity(1), net.ReadString())',
      'allowed[1] = "STEAM_0:1:1234567"',
      'gate(Entity(1), file.Read("x.txt"))',
    ].join('\n');
    const bytes = new TextEncoder().encode(text);
    const analysis = analyzeAddon(
      [
        {
          path: 'lua/autorun/server/sv_gate.lua',
          size: bytes.length,
          depth: 0,
          kind: 'lua',
          bytes,
        },
      ],
      { intel: loadThreatIntel() },
    );
    const runs = analysis.calls.filter((c) => c.api === 'RunString');
    const triggered = (kind: string) =>
      runs
        .find((c) => c.args[0]?.k === 'unk' && c.args[0].taint?.[0]?.kind === kind)
        ?.ctx.some((f) => f.kind === 'trigger');
    expect(triggered('net')).toBe(false);
    expect(triggered('file')).toBe(true);
  });
});
