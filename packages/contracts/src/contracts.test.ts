import { describe, expect, it } from 'vitest';
import {
  ASSIGNABLE_RANKS,
  RANK_TABLE,
  hasPermission,
  listBand,
  problemReportRequestSchema,
  resultBand,
  scanResultSchema,
  setRankRequestSchema,
  deepScanFieldSchema,
} from './index.js';

describe('score bands', () => {
  it('results screen uses 90/70/40', () => {
    expect([100, 90, 89, 70, 69, 40, 39, 0].map(resultBand)).toEqual([
      'safe',
      'safe',
      'attention',
      'attention',
      'dangerous',
      'dangerous',
      'critical',
      'critical',
    ]);
  });
  it('lists and recommendations use 80/50', () => {
    expect([100, 80, 79, 50, 49, 0].map(listBand)).toEqual([
      'safe',
      'safe',
      'warning',
      'warning',
      'critical',
      'critical',
    ]);
  });
});

describe('ranks', () => {
  it('gives every staff rank admin access and nobody but super_admin change_rank', () => {
    expect(hasPermission('member', 'admin_access')).toBe(false);
    expect(hasPermission('support', 'admin_access')).toBe(true);
    expect(hasPermission('administrator', 'change_rank')).toBe(false);
    expect(hasPermission('super_admin', 'change_rank')).toBe(true);
    expect(Object.keys(RANK_TABLE)).toEqual(['member', 'support', 'administrator', 'super_admin']);
  });
  it('never lets super_admin be assigned', () => {
    expect(ASSIGNABLE_RANKS).not.toContain('super_admin');
    expect(setRankRequestSchema.safeParse({ rank: 'super_admin' }).success).toBe(false);
    expect(setRankRequestSchema.safeParse({ rank: 'support' }).success).toBe(true);
  });
});

describe('problem report validation', () => {
  const base = { category: 'falsePositive', file_name: 'a.zip', scan_id: 'x', language: 'fr' };
  it('requires a message that is not blank', () => {
    expect(problemReportRequestSchema.safeParse({ ...base, message: '   ' }).success).toBe(false);
    expect(problemReportRequestSchema.safeParse({ ...base }).success).toBe(false);
  });
  it('accepts 500 characters and refuses 501', () => {
    expect(
      problemReportRequestSchema.safeParse({ ...base, message: 'a'.repeat(500) }).success,
    ).toBe(true);
    expect(
      problemReportRequestSchema.safeParse({ ...base, message: 'a'.repeat(501) }).success,
    ).toBe(false);
  });
});

describe('scan result', () => {
  it('refuses a score outside 0–100 and a malformed technique id', () => {
    const minimal = {
      scan_id: 's',
      filename: 'a.zip',
      score: 50,
      verdict: 'clean',
      threats: [],
      file_count: 1,
      lua_file_count: 1,
      total_lines_scanned: 1,
      scan_time_seconds: 0.1,
      scan_type: 'standard',
      recommendations: [],
      engine_version: '1',
      rules_version: '1',
      archive_sha256: 'x',
      files: [],
    };
    expect(scanResultSchema.safeParse(minimal).success).toBe(true);
    expect(scanResultSchema.safeParse({ ...minimal, score: 101 }).success).toBe(false);
    const threat = {
      pattern: 'p',
      pattern_key: 'runstring',
      title: 't',
      description: 'd',
      recommendation: 'r',
      localized: {
        en: { title: 't', description: 'd', recommendation: 'r' },
        fr: { title: 't', description: 'd', recommendation: 'r' },
      },
      category: 'code_execution',
      severity: 'critical',
      confidence: 1,
      verdict_class: 'backdoor',
      techniques: ['GB-1'],
      code_snippet: '',
      locations: [],
    };
    expect(scanResultSchema.safeParse({ ...minimal, threats: [threat] }).success).toBe(false);
    expect(
      scanResultSchema.safeParse({ ...minimal, threats: [{ ...threat, techniques: ['GB-001'] }] })
        .success,
    ).toBe(true);
  });
  it('reads the multipart deep_scan flag', () => {
    expect(deepScanFieldSchema.parse('true')).toBe(true);
    expect(deepScanFieldSchema.parse('false')).toBe(false);
    expect(deepScanFieldSchema.safeParse('maybe').success).toBe(false);
  });
});
