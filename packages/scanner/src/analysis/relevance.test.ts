// What the emulator may skip: functions with no watched name that call no relevant function.
import { describe, expect, it } from 'vitest';
import { parseLua } from '../lua/index.js';
import type { FunctionDeclaration } from '../lua/ast.js';
import { FUNCTION_WATCH, Relevance } from './relevance.js';

/** `stepwise`: settle after each file, as the addon-wide fixpoint does between rounds. */
function relevantNames(files: string[], stepwise = false): string[] {
  const rel = new Relevance();
  const all: FunctionDeclaration[] = [];
  for (const text of files) {
    const parsed = parseLua(text, { watch: FUNCTION_WATCH });
    rel.add(parsed.functions, false);
    rel.addAliases(parsed.aliases);
    for (const f of parsed.functions ?? []) all.push(f.node);
    if (stepwise) rel.settleNames();
  }
  rel.finish();
  return all
    .filter((n) => !rel.skippable.has(n))
    .map((n) =>
      n.identifier?.type === 'Identifier'
        ? n.identifier.name
        : n.identifier?.type === 'MemberExpression'
          ? n.identifier.identifier.name
          : 'anonymous',
    );
}

describe('relevance', () => {
  it('keeps sinks, their callers by name across files, and skips the rest', () => {
    const names = relevantNames([
      'function runIt(s) RunString(s) end\nfunction draw() surface.DrawRect(0, 0, 1, 1) end',
      'local function handler(ply) if ply:IsAdmin() then runIt("x") end end\nlocal function paint() draw() end',
    ]);
    expect(names.sort()).toEqual(['handler', 'runIt']);
  });
  it('keeps the parents of watched functions and the callers of indirect access', () => {
    const names = relevantNames([
      'function setup() net.Receive("x", function() local s = net.ReadString() end) end\nlocal function g(k) return _G[k] end\nfunction later() g(d(65))() end',
    ]);
    expect(names.sort()).toEqual(['anonymous', 'g', 'later', 'setup']);
  });
  it('keeps decoders but not, by name, their callers (a caller that runs the result holds a sink)', () => {
    const names = relevantNames([
      'local function d(t) return string.char(t) end\nfunction show() print(d(65)) end\nfunction run() RunString(d(65)) end',
    ]);
    expect(names.sort()).toEqual(['d', 'run']);
  });
  it('links callers by the path they call, not by the last name alone', () => {
    const names = relevantNames([
      'function MyAddon.grant(p) p:SetUserGroup("superadmin") end',
      'concommand.Add("x", function(p) MyAddon.grant(p) end)\nlocal function other(e) e.grant(1) end',
    ]);
    expect(names.sort()).toEqual(['anonymous', 'grant']);
  });
  it('settles the same when the facts arrive one file at a time', () => {
    // The sink first, so its callers and an alias's callers arrive after the names are known.
    const files = [
      'function MyAddon.grant(p) p:SetUserGroup("superadmin") end\nrun = RunString',
      'function MyAddon.relay(p) MyAddon.grant(p) end\nfunction ping() run("u") end',
      'concommand.Add("x", function(p) MyAddon.relay(p) end)\nfunction pong() ping() end',
      'function quiet() print(1) end',
    ];
    const once = relevantNames(files).sort();
    expect(once).toEqual(['anonymous', 'grant', 'ping', 'pong', 'relay']);
    expect(relevantNames(files, true).sort()).toEqual(once);
  });
  it('does not follow generic method names', () => {
    const names = relevantNames([
      'function PANEL:Think() RunConsoleCommand("x") end\nfunction other(p) p:Think() end',
    ]);
    expect(names).toEqual(['Think']);
  });
  it('records facts only when asked and names assigned functions', () => {
    expect(parseLua('local f = function() end').functions).toBeUndefined();
    const facts = parseLua(
      'local t = { go = function() http.Fetch("u") end }\nt.x = function() end\nf({ cb = function() end })',
      { watch: FUNCTION_WATCH },
    ).functions!;
    // A constructor's key names a path through the variable it is assigned to (`t.go`), and
    // none when the table is only handed over.
    expect(facts.map((f) => [f.name, f.sink])).toEqual([
      ['t.go', true],
      ['t.x', false],
      [undefined, false],
    ]);
  });
  it('links callers of a local function or a local table field in its own file only', () => {
    const names = relevantNames([
      [
        'local PANEL = {}',
        'function PANEL:Run(s) RunString(s) end',
        'local function helper(s) RunConsoleCommand(s) end',
        'function inFile() PANEL:Run("x") helper("y") end',
      ].join('\n'),
      'function elsewhere() PANEL:Run("x") helper("y") end',
    ]);
    expect(names.sort()).toEqual(['Run', 'helper', 'inFile']);
  });
  it('takes a local for a local only in the block that declares it', () => {
    const names = relevantNames([
      'if SERVER then local PANEL = {} end\nfunction PANEL:Run(s) RunString(s) end',
      'if SERVER then local M = {}\nfunction M.go(s) RunString(s) end end',
      'function viaPanel() PANEL:Run("x") end\nfunction viaM() M.go("y") end',
    ]);
    // PANEL:Run is the global PANEL's (the local ended with its block); M.go is the local M's.
    expect(names.sort()).toEqual(['Run', 'go', 'viaPanel']);
  });
  it('takes a table declared local after the function for the global it then was', () => {
    const names = relevantNames([
      'function PANEL:Run(s) RunString(s) end\nlocal PANEL = {}',
      'function elsewhere() PANEL:Run("x") end',
    ]);
    expect(names.sort()).toEqual(['Run', 'elsewhere']);
  });
});

describe('tables of functions', () => {
  /** The names and file-0 local names once `files` are added, each file settled in turn. */
  function namesWithTables(files: string[]): string[] {
    const rel = new Relevance();
    files.forEach((text, k) => {
      const parsed = parseLua(text, { watch: FUNCTION_WATCH });
      const file = rel.add(parsed.functions, false);
      expect(file).toBe(k);
      rel.addAliases(parsed.aliases);
      rel.addAliases(parsed.localAliases, file);
      rel.addTables(parsed.tables, file, false);
      rel.addTables(parsed.localTables, file, true);
      rel.settleNames();
    });
    return [...rel.names, ...(rel.localNames.get(0) ?? [])].sort();
  }

  it('makes a table holding a relevant function a name, whichever is known first', () => {
    const sinkFirst = [
      'function Lib.exec(s) RunString(s) end',
      'Handlers = { run = Lib.exec, ping = Lib.ping }',
    ];
    expect(namesWithTables(sinkFirst)).toEqual(['Handlers', 'Lib.exec']);
    expect(namesWithTables([...sinkFirst].reverse())).toEqual(['Handlers', 'Lib.exec']);
  });
  it('keeps a local table a name of its own file, and ignores tables of other functions', () => {
    const names = namesWithTables([
      'local function exec(s) RunString(s) end\nlocal handlers = { run = exec }\nlocal shown = { draw = paint }',
    ]);
    expect(names).toEqual(['exec', 'handlers']);
  });
});

describe('the gamemode table', () => {
  it('links GAMEMODE:x callers to GM:x, both ways', () => {
    const names = relevantNames([
      'function GM:Sync(p, s) RunString(s) end',
      'function caller(p) GAMEMODE:Sync(p, "x") end\nfunction other(p) GAMEMODE:Other(p) end',
      'function GAMEMODE.Later(s) RunConsoleCommand(s) end\nfunction viaGM() GM.Later("y") end',
    ]);
    expect(names.sort()).toEqual(['Later', 'Sync', 'caller', 'viaGM']);
  });
});

describe('computed-key calls of a local table', () => {
  it('link a function kept in a local table to calls of that table under any key', () => {
    const names = relevantNames([
      [
        'local cmds = {}',
        'function cmds.rcon(s) RunConsoleCommand(s) end',
        'local function dispatch(c, s) cmds[c](s) end',
        'local function other(c) Global[c]() end',
      ].join('\n'),
    ]);
    expect(names.sort()).toEqual(['dispatch', 'rcon']);
  });
  it('leave global tables out: frameworks call theirs by computed keys everywhere', () => {
    const names = relevantNames([
      'function Lib.rcon(s) RunConsoleCommand(s) end\nfunction elsewhere(c) Lib[c]("x") end',
    ]);
    expect(names).toEqual(['rcon']);
  });
});

describe('the string judge', () => {
  it('grades literals by the strongest word they hold, wherever it stands', () => {
    const judge = FUNCTION_WATCH.string!;
    expect(judge('hello world, nothing here')).toBe(0);
    expect(judge('see https://example.com/x')).toBe(1);
    expect(judge('owner STEAM_0:1:123')).toBe(1);
    expect(judge('  lua_run print(1)')).toBe(2);
    // A strong word after a weak one still makes a sink string.
    expect(judge('http://x/?c=sv_allowcslua 1')).toBe(2);
    expect(judge('db_password')).toBe(2);
  });
});
