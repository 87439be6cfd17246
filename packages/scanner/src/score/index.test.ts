// Each property docs/scoring.md promises, checked on small hand-made threat sets.
import { describe, expect, it } from 'vitest';
import { scoreThreats, type ScoredThreat } from './index.js';

function threat(over: Partial<ScoredThreat> = {}): ScoredThreat {
  return {
    pattern_key: 'rule',
    severity: 'medium',
    confidence: 1,
    category: 'code_execution',
    verdict_class: 'suspicious',
    techniques: [],
    chain: [],
    ...over,
  };
}
const sink = [{ role: 'sink' as const, label: 'RunString', file_path: 'a.lua', line_number: 3 }];

describe('scoreThreats', () => {
  it('gives 100 and clean to an addon with no threat', () => {
    expect(scoreThreats([])).toMatchObject({ score: 100, verdict: 'clean', bound: null });
  });

  it('weighs severity C 30 / H 15 / M 7 / L 3 times confidence', () => {
    expect(scoreThreats([threat({ severity: 'high', confidence: 1 })]).score).toBe(85);
    expect(scoreThreats([threat({ severity: 'medium', confidence: 1 })]).score).toBe(93);
    expect(scoreThreats([threat({ severity: 'low', confidence: 1 })]).score).toBe(97);
    expect(scoreThreats([threat({ severity: 'high', confidence: 0.5 })]).penalty).toBeCloseTo(7.5);
  });

  it('counts the n-th repeat of a severity at 1/(1+0.2n)', () => {
    const three = scoreThreats([threat(), threat(), threat()]);
    expect(three.penalty).toBeCloseTo(7 + 7 / 1.2 + 7 / 1.4);
    // Different severities do not decay each other.
    const mixed = scoreThreats([threat({ severity: 'medium' }), threat({ severity: 'low' })]);
    expect(mixed.penalty).toBeCloseTo(10);
  });

  it('lets the strongest finding of a severity count fully, whatever the input order', () => {
    const a = threat({ pattern_key: 'a', confidence: 0.2 });
    const b = threat({ pattern_key: 'b', confidence: 1 });
    expect(scoreThreats([a, b]).penalty).toBeCloseTo(scoreThreats([b, a]).penalty);
    expect(scoreThreats([a, b]).contributions[1]).toBeCloseTo(7);
  });

  it('clamps to 0 when the penalty exceeds 100', () => {
    const many = Array.from({ length: 30 }, () =>
      threat({ severity: 'high', verdict_class: 'suspicious' }),
    );
    expect(scoreThreats(many).score).toBe(0);
  });

  it('caps a confirmed backdoor below 20 even when it is the only finding', () => {
    const r = scoreThreats([
      threat({ severity: 'critical', confidence: 0.9, verdict_class: 'backdoor' }),
    ]);
    expect(r.score).toBeLessThan(20);
    expect(r).toMatchObject({ verdict: 'malicious', bound: 'critical_override' });
  });

  it('caps an RCE technique with a sink, credential theft and file stealers', () => {
    const rce = threat({ severity: 'high', confidence: 0.8, techniques: ['GB-005'], chain: sink });
    expect(scoreThreats([rce]).score).toBeLessThan(20);
    const noSink = threat({ severity: 'high', confidence: 0.8, techniques: ['GB-005'] });
    expect(scoreThreats([noSink]).score).toBeGreaterThanOrEqual(20);
    expect(
      scoreThreats([threat({ severity: 'critical', confidence: 0.9, techniques: ['GB-015'] })])
        .score,
    ).toBeLessThan(20);
    expect(
      scoreThreats([threat({ severity: 'high', confidence: 0.9, techniques: ['GB-018'] })]).score,
    ).toBeLessThan(20);
  });

  it('does not let a low-confidence or vulnerable finding trigger the override', () => {
    expect(
      scoreThreats([threat({ severity: 'critical', confidence: 0.4, verdict_class: 'backdoor' })])
        .bound,
    ).not.toBe('critical_override');
    const vuln = threat({
      severity: 'critical',
      confidence: 0.9,
      verdict_class: 'vulnerable',
      techniques: ['GB-002'],
      chain: sink,
    });
    expect(scoreThreats([vuln]).bound).toBeNull();
  });

  it('keeps a malicious verdict in the critical band (< 40)', () => {
    const r = scoreThreats([
      threat({ severity: 'high', confidence: 0.6, verdict_class: 'backdoor' }),
    ]);
    expect(r.verdict).toBe('malicious');
    expect(r.score).toBe(39);
    expect(r.bound).toBe('malicious');
  });

  it('never takes obfuscation alone below 50', () => {
    const obf = Array.from({ length: 40 }, (_, i) =>
      threat({
        pattern_key: `obf${i % 3}`,
        severity: 'high',
        category: i % 2 ? 'obfuscation' : 'advanced_obfuscation',
      }),
    );
    const r = scoreThreats(obf);
    expect(r.score).toBe(50);
    expect(r.bound).toBe('obfuscation_only');
    // With an informational note beside it, still obfuscation alone.
    expect(
      scoreThreats([
        ...obf,
        threat({ severity: 'low', verdict_class: 'informational', category: 'other' }),
      ]).score,
    ).toBe(50);
    // With any other real finding the floor no longer applies.
    expect(scoreThreats([...obf, threat({ category: 'network' })]).score).toBeLessThan(50);
  });

  it('weighs vulnerable-only and informational findings lightly', () => {
    const vuln = scoreThreats([
      threat({ severity: 'high', confidence: 0.9, verdict_class: 'vulnerable' }),
    ]);
    expect(vuln.score).toBeGreaterThanOrEqual(90);
    expect(vuln.verdict).toBe('vulnerable');
    const info = scoreThreats([threat({ severity: 'medium', verdict_class: 'informational' })]);
    expect(info.score).toBeGreaterThanOrEqual(98);
    expect(info.verdict).toBe('clean');
  });

  it('calls suspicious what is neither malicious nor only vulnerable', () => {
    expect(scoreThreats([threat({ severity: 'medium' })]).verdict).toBe('suspicious');
    expect(scoreThreats([threat({ severity: 'low' })]).verdict).toBe('clean');
    expect(
      scoreThreats([threat({ severity: 'medium' }), threat({ verdict_class: 'vulnerable' })])
        .verdict,
    ).toBe('suspicious');
  });

  it('is deterministic and always an integer in 0–100', () => {
    const set = [
      threat({ confidence: 0.33 }),
      threat({ severity: 'high', confidence: 0.71 }),
      threat({ severity: 'low', confidence: 0.1 }),
    ];
    const first = scoreThreats(set);
    expect(scoreThreats(set)).toEqual(first);
    expect(Number.isInteger(first.score)).toBe(true);
  });
});
