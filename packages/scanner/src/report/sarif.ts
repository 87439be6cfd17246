// SARIF 2.1.0 output, so code-scanning tools (GitHub, IDEs) can show Sentinelle's threats.
import type { ScanResult, Severity, Threat } from '@sentinelle/contracts';

export type SarifLevel = 'error' | 'warning' | 'note';

const LEVEL: Record<Severity, SarifLevel> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
};
/** GitHub code scanning reads `security-severity` (0–10) to rank alerts. */
const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '7.5',
  medium: '5.0',
  low: '2.0',
};

/** The subset of SARIF 2.1.0 Sentinelle writes. */
export interface SarifPhysicalLocation {
  artifactLocation: { uri: string; uriBaseId: string };
  region?: { startLine: number };
}
export interface SarifLocation {
  physicalLocation: SarifPhysicalLocation;
  message?: { text: string };
  id?: number;
}
export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string };
  defaultConfiguration: { level: SarifLevel };
  properties: Record<string, unknown>;
}
export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: SarifLocation[];
  relatedLocations?: SarifLocation[];
  codeFlows?: Array<{ threadFlows: Array<{ locations: Array<{ location: SarifLocation }> }> }>;
  properties: Record<string, unknown>;
}
export interface SarifRun {
  tool: {
    driver: {
      name: string;
      version: string;
      rules: SarifRule[];
      properties: Record<string, unknown>;
    };
  };
  originalUriBaseIds: Record<string, { description: { text: string } }>;
  artifacts: Array<{
    location: { uri: string; uriBaseId: string };
    hashes?: Record<string, string>;
  }>;
  results: SarifResult[];
  properties: Record<string, unknown>;
}
export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: SarifRun[];
}

/** A relative URI for an archive path: `/` kept, everything else percent-encoded. */
function artifactUri(path: string): string {
  return path
    .replace(/^\/+/, '')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

function location(filePath: string, line: number): SarifLocation {
  const physicalLocation: SarifPhysicalLocation = {
    artifactLocation: { uri: artifactUri(filePath), uriBaseId: 'ADDONROOT' },
  };
  // SARIF lines start at 1; line 0 means "the whole file" (archive-level findings).
  if (line > 0) physicalLocation.region = { startLine: line };
  return { physicalLocation };
}

export function renderSarif(result: ScanResult): SarifLog {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const strongest = new Map<string, Threat>();
  for (const t of result.threats) {
    const prev = strongest.get(t.pattern_key);
    if (!prev) strongest.set(t.pattern_key, t);
  }
  for (const [id, t] of strongest) {
    ruleIndex.set(id, rules.length);
    rules.push({
      id,
      name: id,
      shortDescription: { text: t.localized.en.title },
      fullDescription: { text: t.localized.en.description },
      help: { text: t.localized.en.recommendation },
      defaultConfiguration: { level: LEVEL[t.severity] },
      properties: {
        tags: ['security', t.category, ...t.techniques],
        'security-severity': SECURITY_SEVERITY[t.severity],
        localized: { fr: t.localized.fr },
      },
    });
  }
  const results = result.threats.map((t) => {
    const [first, ...others] = t.locations;
    const entry: SarifResult = {
      ruleId: t.pattern_key,
      ruleIndex: ruleIndex.get(t.pattern_key) ?? -1,
      level: LEVEL[t.severity],
      message: { text: `${t.localized.en.title}: ${t.pattern}` },
      locations: first ? [location(first.file_path, first.line_number)] : [],
      properties: {
        severity: t.severity,
        confidence: t.confidence,
        verdict_class: t.verdict_class,
        techniques: t.techniques,
        ...(t.decoded ? { decoded: t.decoded } : {}),
      },
    };
    if (others.length > 0) {
      entry.relatedLocations = others.map((loc, i) => ({
        id: i + 1,
        ...location(loc.file_path, loc.line_number),
      }));
    }
    if (t.chain.length > 0) {
      entry.codeFlows = [
        {
          threadFlows: [
            {
              locations: t.chain.map((step) => ({
                location: {
                  ...location(step.file_path, step.line_number),
                  message: { text: `${step.role}: ${step.label}` },
                },
              })),
            },
          ],
        },
      ];
    }
    return entry;
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Sentinelle',
            version: result.engine_version,
            rules,
            properties: { rules_version: result.rules_version },
          },
        },
        originalUriBaseIds: {
          ADDONROOT: { description: { text: `Root of the scanned archive ${result.filename}` } },
        },
        artifacts: result.files.map((f) => ({
          location: { uri: artifactUri(f.path), uriBaseId: 'ADDONROOT' },
          ...(f.sha256 ? { hashes: { 'sha-256': f.sha256 } } : {}),
        })),
        results,
        properties: {
          scan_id: result.scan_id,
          score: result.score,
          verdict: result.verdict,
          archive_sha256: result.archive_sha256,
          limits_reached: result.limits_reached,
        },
      },
    ],
  };
}
