// The labelled sample corpus (../shared/samples beside the repository): every malicious case
// must be caught with its techniques, every benign false-positive trap must stay clean.
// Each case is zipped in memory, as an upload would arrive.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  SEVERITY_RANK,
  scanResultSchema,
  type ScanResult,
  type Severity,
} from '@sentinelle/contracts';
import { scanArchive } from './index.js';
import { SAMPLES_ROOT } from './sampleFixtures.js';

const samplesRoot = SAMPLES_ROOT;

interface Expectation {
  verdict: 'malicious' | 'benign';
  techniques: string[];
  min_severity: Severity | null;
  notes?: string;
}

function casesOf(kind: 'malicious' | 'benign'): string[] {
  const dir = join(samplesRoot, kind);
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
}

function zipFolder(root: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name !== 'expect.json')
        files[relative(root, full).split(sep).join('/')] = readFileSync(full);
    }
  };
  walk(root);
  return zipSync(files);
}

function summary(result: ScanResult): string {
  const threats = result.threats.map(
    (t) =>
      `${t.severity}/${t.verdict_class} ${t.pattern_key} [${t.techniques.join(',')}] ${t.locations[0]?.file_path}:${t.locations[0]?.line_number}`,
  );
  return `score ${result.score}, verdict ${result.verdict}, ${result.threats.length} threats\n  ${threats.join('\n  ')}`;
}

async function scanCase(
  kind: 'malicious' | 'benign',
  id: string,
): Promise<{ expected: Expectation; result: ScanResult }> {
  const dir = join(samplesRoot, kind, id);
  const expected = JSON.parse(readFileSync(join(dir, 'expect.json'), 'utf8')) as Expectation;
  const result = await scanArchive(zipFolder(dir), { filename: `${id}.zip`, scanId: id });
  scanResultSchema.parse(result);
  return { expected, result };
}

describe('sample corpus', () => {
  it('is present beside the repository', () => {
    expect(existsSync(samplesRoot), `missing ${samplesRoot}`).toBe(true);
  });
});

describe.runIf(existsSync(samplesRoot))('malicious samples', () => {
  it.each(casesOf('malicious'))('%s is caught', async (id) => {
    const { expected, result } = await scanCase('malicious', id);
    const why = summary(result);
    expect(result.score, why).toBeLessThan(40);
    expect(result.verdict, why).toBe('malicious');
    const missing = expected.techniques.filter(
      (tech) => !result.threats.some((t) => t.techniques.includes(tech)),
    );
    expect(missing, `techniques not reported; ${why}`).toEqual([]);
    const floor = SEVERITY_RANK[expected.min_severity ?? 'low'];
    expect(
      result.threats.some((t) => SEVERITY_RANK[t.severity] >= floor),
      `no threat ≥ ${expected.min_severity}; ${why}`,
    ).toBe(true);
  });
});

describe.runIf(existsSync(samplesRoot))('benign samples', () => {
  it.each(casesOf('benign'))('%s stays clean', async (id) => {
    const { result } = await scanCase('benign', id);
    const why = summary(result);
    expect(result.score, why).toBeGreaterThanOrEqual(80);
    expect(result.verdict, why).not.toBe('malicious');
    // The samples contract: no high or critical finding; medium is only acceptable as
    // information or a vulnerable-addon note, never as a suspected backdoor.
    const tooStrong = result.threats.filter(
      (t) =>
        SEVERITY_RANK[t.severity] >= SEVERITY_RANK.high ||
        (t.severity === 'medium' && !['informational', 'vulnerable'].includes(t.verdict_class)),
    );
    expect(
      tooStrong.map((t) => `${t.severity} ${t.pattern_key}`),
      why,
    ).toEqual([]);
  });
});
