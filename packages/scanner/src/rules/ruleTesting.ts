// Test support for rules: builds an addon from inline files, analyses it and runs one rule,
// so each rule's test reads like ESLint's RuleTester (valid / invalid cases).
import { createHash } from 'node:crypto';
import { looksLikeLua } from '../archive/contentSniffing.js';
import type { ArchiveEntry, EntryKind } from '../archive/types.js';
import { analyzeAddon } from '../analysis/index.js';
import { loadThreatIntel } from '../intel/index.js';
import type { Finding, Rule } from './types.js';

const intel = loadThreatIntel();

/** As the archive reader decides: by name for Lua, modules and maps, by content for the rest. */
function kindOf(path: string, bytes: Uint8Array): EntryKind {
  if (path.endsWith('.lua')) return 'lua';
  if (/\.(dll|so)$/.test(path)) return 'binary_module';
  if (path.endsWith('.bsp')) return 'map';
  return looksLikeLua(bytes) ? 'lua_in_asset' : 'text';
}

/** Entries of an addon from `path → content`; `.bsp` contents are entity lumps, `.dll` strings. */
export function addonOf(files: Record<string, string>): ArchiveEntry[] {
  return Object.entries(files).map(([path, content]) => {
    const bytes = Buffer.from(content, 'utf8');
    const kind = kindOf(path, bytes);
    const e: ArchiveEntry = {
      path,
      size: bytes.byteLength,
      kind,
      depth: 0,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
    if (kind === 'map') e.mapEntities = content;
    else if (kind === 'binary_module') e.strings = content.split('\n');
    else e.bytes = new Uint8Array(bytes);
    return e;
  });
}

export function check(rule: Rule, files: Record<string, string>): Finding[] {
  const analysis = analyzeAddon(addonOf(files), { intel });
  return rule.check({ analysis, intel });
}

const RANK = { low: 1, medium: 2, high: 3, critical: 4 } as const;

/** Highest severity reported by the rule, 0 when nothing. */
export function worst(findings: Finding[]): number {
  return Math.max(0, ...findings.map((f) => RANK[f.severity]));
}

export { RANK };
