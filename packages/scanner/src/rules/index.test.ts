// runRules over a whole addon: what it keeps of the rules' findings.
import { describe, expect, it } from 'vitest';
import { analyzeAddon } from '../analysis/index.js';
import { loadThreatIntel } from '../intel/index.js';
import { runRules } from './index.js';
import { addonOf } from './ruleTesting.js';

const intel = loadThreatIntel();

function rulesFound(files: Record<string, string>): string[] {
  return runRules(analyzeAddon(addonOf(files), { intel }), intel)
    .map((f) => `${f.ruleId}@${f.file}`)
    .sort();
}

const EXAMPLE = 'net.Receive("bad", function() RunString(net.ReadString()) end)';

describe('runRules and Lua in non-Lua files', () => {
  it('drops what a text file nothing loads would do (a README example)', () => {
    const found = rulesFound({
      'README.txt': [
        'MyPanel - developer notes',
        'To add a custom action from your own addon:',
        '',
        '    hook.Add("MyPanelAction", "myaddon", function(ply, action)',
        '        if action == "reload" then RunConsoleCommand("changelevel", game.GetMap()) end',
        '    end)',
        '',
        'Never use RunString with data from players. Example of what NOT to do:',
        `    ${EXAMPLE}`,
      ].join('\n'),
      'lua/autorun/server/sv_x.lua': 'print("loaded")',
    });
    expect(found.filter((f) => f.startsWith('netmessage_rce'))).toEqual([]);
  });
  it('keeps it when code reads that file and runs what it read', () => {
    const found = rulesFound({
      'materials/x/skin.vmt': EXAMPLE,
      'lua/autorun/server/sv_x.lua': 'RunString(file.Read("materials/x/skin.vmt", "GAME"))',
    });
    expect(found).toContain('netmessage_rce@materials/x/skin.vmt');
    expect(found).toContain('hidden_lua_asset@materials/x/skin.vmt');
  });
  it('keeps it when code runs a file whose name the emulator could not work out', () => {
    // The whole name unknown, or only part of it.
    for (const path of ['n', '"materials/x/" .. n']) {
      const found = rulesFound({
        'materials/x/skin.vmt': EXAMPLE,
        'lua/autorun/server/sv_x.lua': `local n = GetConVarString("skin") RunString(file.Read(${path}, "GAME"))`,
      });
      expect(found).toContain('netmessage_rce@materials/x/skin.vmt');
    }
  });
});
