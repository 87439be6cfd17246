// Rule-level acceptance on the labelled samples (../shared/samples beside the repository):
// every expected technique of a malicious case gets a finding and the worst one reaches the
// case's min_severity; no benign case gets a finding above low.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeAddon } from '../analysis/index.js';
import { readArchive } from '../archive/index.js';
import { loadThreatIntel } from '../intel/index.js';
import { ALL_RULES, runRules } from './index.js';
import { RANK, worst } from './ruleTesting.js';
import { SAMPLES_ROOT } from '../sampleFixtures.js';

const root = SAMPLES_ROOT;
const intel = loadThreatIntel();
const techniquesOf = new Map(ALL_RULES.map((r) => [r.meta.id, r.meta.techniques]));

async function findingsOf(dir: string) {
  const contents = await readArchive(dir);
  const entries = contents.entries.filter((e) => !e.path.endsWith('expect.json'));
  return runRules(analyzeAddon(entries, { intel }), intel);
}

function cases(kind: 'malicious' | 'benign'): string[] {
  const dir = join(root, kind);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe.skipIf(!existsSync(root))('rules on the labelled samples', () => {
  for (const c of cases('malicious')) {
    it(`finds every technique of ${c}`, async () => {
      const expectFile = JSON.parse(
        readFileSync(join(root, 'malicious', c, 'expect.json'), 'utf8'),
      ) as {
        techniques: string[];
        min_severity: keyof typeof RANK;
      };
      const findings = await findingsOf(join(root, 'malicious', c));
      const seen = new Set(
        findings.flatMap((f) => f.techniques ?? techniquesOf.get(f.ruleId) ?? []),
      );
      for (const t of expectFile.techniques) expect(seen.has(t), `${c} ${t}`).toBe(true);
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK[expectFile.min_severity]);
      for (const f of findings) {
        expect(f.file).not.toBe('');
        if (f.severity === 'critical')
          expect(f.chain.length + (f.decoded ? 1 : 0)).toBeGreaterThan(0);
      }
    });
  }
  for (const c of cases('benign')) {
    it(`reports nothing above low in ${c}`, async () => {
      const findings = await findingsOf(join(root, 'benign', c));
      expect(
        findings.filter((f) => f.severity !== 'low').map((f) => `${f.ruleId} ${f.file}:${f.line}`),
      ).toEqual([]);
    });
  }
});
