// The shipped intel keeps backdoors and vulnerable-but-legitimate receivers apart and holds
// the names the threat catalogue cites.
import { describe, expect, it } from 'vitest';
import { findFingerprint, findIoc, INTEL_VERSION, loadThreatIntel } from './index.js';

const intel = loadThreatIntel();

describe('loadThreatIntel', () => {
  it('carries the public list sizes the catalogue describes', () => {
    expect(intel.backdoorNetNames.size).toBeGreaterThanOrEqual(160);
    expect(intel.backdoorNetNames.size).toBeLessThan(250);
    expect(intel.exploitableNetNames.size).toBeGreaterThanOrEqual(330);
    expect(intel.version).toBe(INTEL_VERSION);
  });

  it('never lists one name as both backdoor and exploitable', () => {
    const both = [...intel.backdoorNetNames].filter((n) => intel.exploitableNetNames.has(n));
    expect(both).toEqual([]);
  });

  it('classes the catalogue backdoor examples (GB-003) as backdoors', () => {
    for (const name of [
      'Sandbox_ArmDupe',
      'nostrip',
      'ULXQUERY2',
      'ULX_QUERY2',
      'memeDoor',
      'SessionBackdoor',
      'm9k_addons',
      'DontRunStringCodePLZ',
      'nw.readstream',
      'pwn_wake',
    ]) {
      expect(intel.backdoorNetNames.has(name.toLowerCase()), name).toBe(true);
    }
  });

  it('classes legitimate addons receivers (GB-004) as exploitable, not backdoor', () => {
    for (const name of [
      'pplay_sendtable',
      'WriteQuery',
      'SendMoney',
      'BailOut',
      'customprinter_get',
      'RevivePlayer',
      'blueatm',
    ]) {
      expect(intel.exploitableNetNames.has(name.toLowerCase()), name).toBe(true);
      expect(intel.backdoorNetNames.has(name.toLowerCase()), name).toBe(false);
    }
  });

  it('marks generic backdoor names as a subset needing a dangerous handler', () => {
    expect(intel.genericBackdoorNetNames?.has('c')).toBe(true);
    expect(intel.genericBackdoorNetNames?.has('nostrip')).toBe(false);
    for (const n of intel.genericBackdoorNetNames ?? [])
      expect(intel.backdoorNetNames.has(n)).toBe(true);
  });

  it('records which public lists name a net', () => {
    expect(intel.netNameLists?.get('nostrip')).toEqual(
      expect.arrayContaining(['nova', 'snte', 'gac']),
    );
  });

  it('knows backdoor console commands and module names', () => {
    expect(intel.backdoorCommandNames.has('sv_root_access')).toBe(true);
    expect(intel.backdoorCommandNames.has('xjx3lnwqo1s58pj1fza0')).toBe(true);
    expect(intel.backdoorCommandFamilies?.get('_76')).toBe('Traitor Glow');
    expect(intel.knownModuleNames.has('mysqloo')).toBe(true);
    expect(intel.knownModuleNames.has('chttpfix')).toBe(false);
  });
});

describe('findIoc and findFingerprint', () => {
  it('finds C2 hosts and URL fragments whatever the case', () => {
    expect(findIoc(intel, 'https://API.Omega-Project.cz/x')).toBe('omega-project.cz');
    expect(findIoc(intel, 'https://cdn.invalid/f.php?key=Q2xw7RkA93')).toBe('/f.php?key=');
    expect(
      findIoc(intel, 'https://raw.githubusercontent.com/owner/repo/master/version.txt'),
    ).toBeUndefined();
  });

  it('finds family fingerprints', () => {
    expect(findFingerprint(intel, 'local function RunningDRMe(t)')?.family).toBe(
      'KVacDoor obfuscator',
    );
    expect(findFingerprint(intel, 'print("hello")')).toBeUndefined();
  });
});
