// Everything the scanner outputs: the ScanResult JSON, the text report and SARIF.
export { buildScanResult, type ScanResultInput } from './scanResult.js';
export { buildRecommendations, hostsInThreats } from './recommendations.js';
export { renderTextReport } from './text.js';
export { renderSarif, type SarifLog } from './sarif.js';
export {
  findingToThreat,
  archiveFindingToThreat,
  ARCHIVE_RULE_METAS,
  compareThreats,
  dedupeThreats,
} from './threats.js';
