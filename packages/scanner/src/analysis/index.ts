// Entry point of the analysis: parses every Lua entry of an addon once, emulates it (constant
// folding, aliases, taint, guards, payload re-scanning) and gathers what the rules query.
import type { ArchiveEntry } from '../archive/types.js';
import type { ThreatIntel } from '../intel/types.js';
import { parseLua, type Statement } from '../lua/index.js';
import { Emulator, type FileContext } from './emulator.js';
import { realmOfPath } from './realm.js';
import { FUNCTION_WATCH, Relevance } from './relevance.js';
import { countWords } from './words.js';
import type { AddonAnalysis, FileAnalysis } from './types.js';

export type * from './types.js';
export type { Value, TaintSource, Access, DecodeHow } from './values.js';
export { textOf, asString, partialText, taintOf } from './values.js';
export { realmOfPath } from './realm.js';
export { classifyCondition, identityTriggersIn, STEAMID_LITERAL } from './guards.js';

export interface AnalyzeOptions {
  intel: ThreatIntel;
  /** How many layers of decoded payload are re-analysed (default 3). */
  maxPayloadDepth?: number;
  isCancelled?: () => boolean;
}

/**
 * Files mentioning none of these can neither reach a sink nor hide one: they are parsed (for
 * the lexical facts) but not emulated, which keeps big UI-only addons fast.
 */
const WORTH_EMULATING =
  /RunString|CompileString|CompileFile|loadstring|\bload\s*\(|BroadcastLua|SendLua|ConsoleCommand|ConCommand|SetUserGroup|addUser|adduser|http|HTTP|_G\b|getfenv|setfenv|getregistry|\b_R\b|FindMetaTable|rawget|\.char\b|\\x[0-9a-fA-F]|\\\d|Base64|Decompress|bxor|sql\.|file\.|jit\.|debug\.|concommand|unban|rcon|PlayURL|OpenURL|net\.Receive|net\.Read|net\.Write|lua_run|luarun|PlayerSay|GetInfo|IsSuperAdmin|IsAdmin|SteamID|steamworks|timer\.Create|Kick|Ban\b|RunJavascript|MountGMA|while\s+true/;

function budgetFor(bytes: number): number {
  return 100_000 + bytes * 4;
}

/** `lua_run` entities of a map: their Code keyvalues with the line in the entity lump. */
function luaRunEntities(lump: string): Array<{ code: string; line: number; classname: string }> {
  const out: Array<{ code: string; line: number; classname: string }> = [];
  const re = /\{([^{}]*)\}/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(lump)) && out.length < 1000) {
    const body = m[1]!;
    const cls = /"classname"\s+"([^"]*)"/.exec(body)?.[1] ?? '';
    if (cls !== 'lua_run' && cls !== 'point_servercommand' && cls !== 'point_clientcommand')
      continue;
    const code = /"Code"\s+"([^"]*)"/i.exec(body)?.[1];
    const line = lump.slice(0, m.index).split('\n').length;
    out.push({ code: code ?? '', line, classname: cls });
  }
  return out;
}

export function analyzeAddon(entries: ArchiveEntry[], options: AnalyzeOptions): AddonAnalysis {
  const analysis: AddonAnalysis = {
    files: [],
    calls: [],
    indexes: [],
    overrides: [],
    decodedStrings: [],
    payloads: [],
    textEntries: [],
    binaryModules: [],
    maps: [],
    clientFiles: new Set(),
    cancelled: false,
  };
  const emulator = new Emulator(analysis, options.maxPayloadDepth ?? 3, analysis.clientFiles);
  const contexts = new Map<string, FileContext>();

  const luaEntries = entries.filter(
    (e) => (e.kind === 'lua' || e.kind === 'lua_in_asset') && e.bytes,
  );
  for (const entry of entries) {
    if (entry.kind === 'text') analysis.textEntries.push(entry);
    else if (entry.kind === 'binary_module') analysis.binaryModules.push(entry);
    else if (entry.kind === 'map') analysis.maps.push(entry);
  }

  // Parse every file first: which functions are worth emulating is an addon-wide question
  // (helpers called by name live in other files).
  const relevance = new Relevance();
  const pending: Array<{ body: Statement[]; fc: FileContext }> = [];
  for (const entry of luaEntries) {
    if (options.isCancelled?.()) {
      analysis.cancelled = true;
      return analysis;
    }
    const bytes = entry.bytes!;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    let parsed;
    try {
      parsed = parseLua(bytes, { watch: FUNCTION_WATCH });
    } catch {
      parsed = undefined;
    }
    const body = parsed?.chunk.body ?? [];
    const meaningful = body.filter((s) => s.type !== 'ErrorStatement').length;
    const words = countWords(text);
    const file: FileAnalysis = {
      path: entry.path,
      kind: entry.kind,
      realm: entry.kind === 'lua_in_asset' ? 'server' : realmOfPath(entry.path),
      text,
      lines: text.split(/\r?\n|\r/),
      parse: !parsed
        ? 'failed'
        : parsed.errors.length === 0
          ? 'ok'
          : meaningful > 0
            ? 'recovered'
            : 'failed',
      parseErrors: parsed?.errors.length ?? 1,
      obfuscatedIdentifiers: words.obfuscated,
      identifierCount: words.identifiers,
      budgetExhausted: false,
    };
    if (parsed) file.facts = parsed.facts;
    if (entry.sha256) file.sha256 = entry.sha256;
    analysis.files.push(file);
    const fc: FileContext = {
      path: entry.path,
      realm: file.realm,
      depth: 0,
      steps: 0,
      budget: budgetFor(bytes.byteLength),
      exhausted: false,
    };
    contexts.set(entry.path, fc);
    if (parsed && WORTH_EMULATING.test(text)) {
      // Machine-obfuscated files are emulated whole: their decoders hide behind plain names.
      relevance.add(parsed.functions, file.obfuscatedIdentifiers >= 5);
      pending.push({ body, fc });
    }
  }
  relevance.finish();
  emulator.skippable = relevance.skippable;
  // Receivers of known backdoor names are judged by what they do (honeypots ban the sender).
  emulator.exhaustiveNetName = (name) => options.intel.backdoorNetNames.has(name.toLowerCase());
  for (const { body, fc } of pending) {
    if (options.isCancelled?.()) {
      analysis.cancelled = true;
      return analysis;
    }
    emulator.runChunk(body, fc);
  }

  for (const map of analysis.maps) {
    if (!map.mapEntities) continue;
    const fc: FileContext = {
      path: map.path,
      realm: 'server',
      depth: 0,
      steps: 0,
      budget: budgetFor(map.mapEntities.length),
      exhausted: false,
    };
    for (const ent of luaRunEntities(map.mapEntities)) {
      if (ent.code) emulator.rescan(ent.code, ent.classname, 'server', fc, ent.line);
    }
  }

  emulator.drain(options.isCancelled);
  if (options.isCancelled?.()) analysis.cancelled = true;
  for (const f of analysis.files) f.budgetExhausted = contexts.get(f.path)?.exhausted ?? false;
  return analysis;
}

export { luaRunEntities };
