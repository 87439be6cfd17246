// The rule registry: every rule of this folder, and `runRules` which runs them all over one
// addon's analysis and removes duplicate findings.
import type { AddonAnalysis } from '../analysis/types.js';
import type { ThreatIntel } from '../intel/types.js';
import { SharedViews } from './shared.js';
import { dedupe } from './support.js';
import { taintedSinks } from './flows.js';
import type { Finding, Rule } from './types.js';
import { rule as runstring } from './runstring.js';
import { rule as netmessageRce } from './netmessage_rce.js';
import { rule as backdoorNetname } from './backdoor_netname.js';
import { rule as exploitableNetname } from './exploitable_netname.js';
import { rule as unvalidatedReceiver } from './unvalidated_receiver.js';
import { rule as concommandBackdoor } from './concommand_backdoor.js';
import { rule as chatcommandBackdoor } from './chatcommand_backdoor.js';
import { rule as steamidGate } from './steamid_gate.js';
import { rule as superadmin } from './superadmin.js';
import { rule as datafileExecution } from './datafile_execution.js';
import { rule as luarunCommand } from './luarun_command.js';
import { rule as binaryModule } from './binary_module.js';
import { rule as bytecodeVm } from './bytecode_vm.js';
import { rule as mapLuarun } from './map_luarun.js';
import { rule as hiddenLuaAsset } from './hidden_lua_asset.js';
import { rule as credentialTheft } from './credential_theft.js';
import { rule as serverBeacon } from './server_beacon.js';
import { rule as dataexfiltration } from './dataexfiltration.js';
import { rule as fileStealer } from './file_stealer.js';
import { rule as antiModeration } from './anti_moderation.js';
import { rule as securityTampering } from './security_tampering.js';
import { rule as clientCodePush } from './client_code_push.js';
import { rule as clientGriefing } from './client_griefing.js';
import { rule as cvarTampering } from './cvar_tampering.js';
import { rule as destructiveAction } from './destructive_action.js';
import { rule as sqlinjection } from './sqlinjection.js';
import { rule as stringEncoding } from './string_encoding.js';
import { rule as xorDecoding } from './xor_decoding.js';
import { rule as indirectGlobalAccess } from './indirect_global_access.js';
import { rule as sinkAlias } from './sink_alias.js';
import { rule as gluaSyntaxFingerprint } from './glua_syntax_fingerprint.js';
import { rule as lexicalNoise } from './lexical_noise.js';
import { rule as antiAnalysis } from './anti_analysis.js';
import { rule as iocMatch } from './ioc_match.js';
import { rule as parseFailure } from './parse_failure.js';

export type { Rule, RuleContext, RuleMeta, RuleText, Finding } from './types.js';

export const ALL_RULES: readonly Rule[] = [
  runstring,
  netmessageRce,
  backdoorNetname,
  exploitableNetname,
  unvalidatedReceiver,
  concommandBackdoor,
  chatcommandBackdoor,
  steamidGate,
  superadmin,
  datafileExecution,
  luarunCommand,
  binaryModule,
  bytecodeVm,
  mapLuarun,
  hiddenLuaAsset,
  credentialTheft,
  serverBeacon,
  dataexfiltration,
  fileStealer,
  antiModeration,
  securityTampering,
  clientCodePush,
  clientGriefing,
  cvarTampering,
  destructiveAction,
  sqlinjection,
  stringEncoding,
  xorDecoding,
  indirectGlobalAccess,
  sinkAlias,
  gluaSyntaxFingerprint,
  lexicalNoise,
  antiAnalysis,
  iocMatch,
  parseFailure,
];

export function runRules(analysis: AddonAnalysis, intel: ThreatIntel): Finding[] {
  const findings: Finding[] = [];
  const shared = new SharedViews(analysis, intel);
  for (const rule of ALL_RULES) {
    try {
      findings.push(...rule.check({ analysis, intel, shared }));
    } catch {
      // One broken rule must not lose the others' findings.
    }
  }
  const inert = inertAssets(analysis, shared);
  return dedupe(
    inert.size === 0
      ? findings
      : findings.filter((f) => !inert.has(f.file) || RULES_ON_INERT_TEXT.has(f.ruleId)),
  );
}

/** Rules about the text of a file itself, which hold whether or not it runs. */
const RULES_ON_INERT_TEXT = new Set([hiddenLuaAsset.meta.id, iocMatch.meta.id]);

/**
 * Non-Lua files holding Lua (a README's example, a `.vmt`) that nothing loads: the game never
 * runs them by itself (GB-014), so what the emulator found in them is not the addon's
 * behaviour. A file runs when code reads a file under its name, or under a name the emulator
 * could not work out, and hands what it read to an execution sink.
 */
function inertAssets(analysis: AddonAnalysis, shared: SharedViews): Set<string> {
  const inert = new Set<string>();
  for (const f of analysis.files) if (f.kind === 'lua_in_asset') inert.add(f.path);
  if (inert.size === 0) return inert;
  const loads = taintedSinks(analysis, ['file'], { exec: true }, shared.sinkCalls());
  for (const { sources } of loads)
    for (const s of sources) {
      // (A name the emulator knows only in part, `"materials/" .. name`, could be any of them.)
      if (s.label.includes('…') || s.label.includes('«?»')) return new Set();
      for (const path of inert)
        if (s.label.toLowerCase().includes(path.split('/').pop()!.toLowerCase()))
          inert.delete(path);
    }
  return inert;
}
