// Entry point of the analysis: parses every Lua entry of an addon once, emulates it (constant
// folding, aliases, taint, guards, payload re-scanning) and gathers what the rules query.
import type { Realm } from '@sentinelle/contracts';
import type { ArchiveEntry } from '../archive/types.js';
import type { ThreatIntel } from '../intel/types.js';
import {
  type FunctionFacts,
  mayMention,
  wordHash,
  parseLazy,
  parseLua,
  type ParseResult,
  type Skim,
  type SkimWatch,
  skimLua,
  type Statement,
  wordOffsets,
} from '../lua/index.js';
import { type EncodingFacts, hasUtf8Bom, scanEncodingOfBytes } from '../lua/source.js';
import { Emulator, type EmulatorHost, type FileContext, inRealm } from './emulator.js';
import { realmOfPath } from './realm.js';
import { CODE_WORDS, MAX_STRING, type Value } from './values.js';
import { FUNCTION_WATCH, Relevance, searchedName, skimWatchFor } from './relevance.js';
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
  /** Distinct call events kept before only the strong ones count (default 400 000). */
  maxCallEvents?: number;
}

/** A translation file the game reads phrases from (lower-cased path). */
const TRANSLATION_FILE = /^resource\/localization\/[^/]+\/[^/]+\.properties$/;

function budgetFor(bytes: number): number {
  return 100_000 + bytes * 4;
}

/**
 * The entities of a map that run code or commands (`lua_run`, `point_servercommand`,
 * `point_clientcommand`), with the line in the entity lump and what they run: a `lua_run`'s
 * Code keyvalue, and the data other entities' outputs send to its input (`"OnMapSpawn"
 * "relay_name,Command,sv_allowcslua 1,0,-1"`: the command a point_servercommand runs,
 * `RunPassedCode` for a lua_run).
 */
/** AddOutput's data: `<output> <target>:<input>:<data>:<delay>:<times>`. */
const ADDED_OUTPUT = /^\s*\S+\s+([^:]+):([^:]+):(.*?)(?::-?[\d.]*:-?\d*)?$/;

function luaRunEntities(lump: string): Array<{ code: string; line: number; classname: string }> {
  const out: Array<{ code: string; line: number; classname: string; name: string }> = [];
  // (An entity is what lies between braces, quoted values included whole: a value may hold
  // braces itself, Lua code in an output's data.)
  const re = /\{((?:"[^"]*"|[^{}"])*)\}/g;
  const bodies: string[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(lump)) && out.length < 1000) {
    const body = m[1]!;
    bodies.push(body);
    const cls = /"classname"\s+"([^"]*)"/.exec(body)?.[1] ?? '';
    if (cls !== 'lua_run' && cls !== 'point_servercommand' && cls !== 'point_clientcommand')
      continue;
    const code = /"Code"\s+"([^"]*)"/i.exec(body)?.[1];
    const name = /"targetname"\s+"([^"]*)"/i.exec(body)?.[1] ?? '';
    const line = lump.slice(0, m.index).split('\n').length;
    out.push({ code: code ?? '', line, classname: cls, name: name.toLowerCase() });
  }
  const named = out.filter((e) => e.name !== '');
  if (named.length > 0) {
    // Fields split by commas, or by ESC in newer maps: read alike once ESC is a comma.
    const output = /"[^"]*"\s+"([^",]*),([^",]*),([^"]*?),[^",]*,[^",]*"/g;
    for (const body of bodies) {
      for (const o of body.replaceAll('\u001b', ',').matchAll(output)) {
        let target = o[1]!.toLowerCase();
        let input = o[2]!.toLowerCase();
        let data = o[3]!;
        // `relay,AddOutput,OnTrigger fx:RunPassedCode:<code>:0:-1`: an output added at run
        // time, its fields split by colons (the code may hold colons: the last two go).
        if (input === 'addoutput') {
          const added = ADDED_OUTPUT.exec(data);
          if (added === null) continue;
          target = added[1]!.trim().toLowerCase();
          input = added[2]!.trim().toLowerCase();
          data = added[3]!;
        }
        if (input !== 'command' && input !== 'runpassedcode') continue;
        for (const e of named) if (e.name === target) e.code = e.code ? `${e.code}\n${data}` : data;
      }
    }
  }
  return out.map(({ code, line, classname }) => ({ code, line, classname }));
}

/**
 * A Lua entry with its bytes kept. (A function made once, not a callback written per scan:
 * see SharedViews.callsWhere in rules/shared.ts.)
 */
export function isLuaEntry(entry: ArchiveEntry): boolean {
  return (entry.kind === 'lua' || entry.kind === 'lua_in_asset') && entry.bytes !== undefined;
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
    sandboxedCompiles: new Set(),
    cancelled: false,
  };
  const emulator = new Emulator(analysis, options.maxPayloadDepth ?? 3, analysis.clientFiles);
  if (options.maxCallEvents !== undefined) emulator.maxCallEvents = options.maxCallEvents;

  const luaEntries = entries.filter(isLuaEntry);
  for (const entry of entries) {
    if (entry.kind === 'text') analysis.textEntries.push(entry);
    else if (entry.kind === 'binary_module') analysis.binaryModules.push(entry);
    else if (entry.kind === 'map') analysis.maps.push(entry);
  }

  // Skim every file; parse those worth a tree, leaving the bodies of functions that are not
  // lazy. Which functions are worth emulating is an addon-wide question (helpers called by
  // path live in other files), settled by the fixpoint below.
  const relevance = new Relevance();
  const skimWatch = skimWatchFor(options.intel);
  const clientSkimWatch = skimWatchFor(options.intel, true);
  const records: LuaFileRecord[] = [];
  for (const entry of luaEntries) {
    if (options.isCancelled?.()) {
      analysis.cancelled = true;
      return analysis;
    }
    const record = skimFile(
      entry,
      entry.kind === 'lua' && realmOfPath(entry.path) === 'client' ? clientSkimWatch : skimWatch,
    );
    records.push(record);
    analysis.files.push(record.file);
    // Machine-obfuscated files (the lexical-noise rule's measure: 5+ machine-made names,
    // over 5 % of identifiers) are parsed and emulated whole: their decoders hide behind
    // plain names. Files the skim finds broken are parsed whole for their exact errors.
    const made = record.file.obfuscatedIdentifiers;
    const obfuscated = made >= 5 && made / Math.max(1, record.file.identifierCount) > 0.05;
    if (record.skim.worth || obfuscated || !record.skim.balanced)
      parseRecord(record, relevance, obfuscated || !record.skim.balanced, obfuscated);
  }
  relevance.settleNames();
  if (!settleRelevance(records, relevance, options.isCancelled)) {
    analysis.cancelled = true;
    return analysis;
  }
  relevance.finish();

  emulator.skippable = relevance.skippable;
  emulator.reachesSink = relevance.reachesSink;
  const run = new AddonRun(records, relevance, emulator, entries, options.intel);
  emulator.host = run;
  for (const record of records) {
    if (options.isCancelled?.()) {
      analysis.cancelled = true;
      return analysis;
    }
    if (!record.body) run.runQuietIncludes(record);
    // (A file loaded on demand by an earlier one has run already.)
    else if (!record.ran) run.runRecord(record);
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
      shallow: false,
    };
    for (const ent of luaRunEntities(map.mapEntities)) {
      // (What a point_servercommand runs is console commands, not Lua.)
      if (ent.code && ent.classname === 'lua_run')
        emulator.rescan(ent.code, ent.classname, 'server', fc, ent.line);
    }
  }

  emulator.drain(options.isCancelled);
  if (options.isCancelled?.()) analysis.cancelled = true;
  for (const site of emulator.sandboxedCompiles()) analysis.sandboxedCompiles.add(site);
  for (const r of records) {
    r.file.budgetExhausted = r.fc.exhausted;
    r.file.emulationSteps = r.fc.steps;
  }
  return analysis;
}

export { luaRunEntities };

/**
 * One addon's run through the emulator: the files it loads on demand, by include or for a
 * definition, and the files it ships for `file.Read`. A class, not closures made in
 * analyzeAddon: a scan's closures die with it, and V8 drops the optimised code of closures
 * that died, so every scan compiled them again on the core the other scan thread uses
 * (traced: 20–40 ms a compile for leadsToUnrunTree and runRecord, every few passes).
 */
class AddonRun implements EmulatorHost {
  /** Files with nothing worth a tree, by the function paths they define, not loaded yet. */
  private readonly definers = new Map<string, LuaFileRecord[]>();
  /** Every Lua file by its lower-cased path (for include). */
  private readonly byPath = new Map<string, LuaFileRecord>();
  /**
   * Files with nothing worth a tree that a running file included before its next file with a
   * tree, by the including file's path (see runIncludedBefore).
   */
  private readonly quietIncluded = new Map<string, LuaFileRecord[]>();
  /** Files that a file with a tree includes by a literal path, once asked. */
  private includedByTree: Set<LuaFileRecord> | undefined = undefined;
  /**
   * Text files the addon ships, for loaders that read them back (GB-014): their text is what
   * file.Read gives. Lua files are left out: they are analysed as themselves.
   */
  private readonly shipped = new Map<string, Uint8Array>();

  constructor(
    private readonly records: LuaFileRecord[],
    private readonly relevance: Relevance,
    private readonly emulator: Emulator,
    entries: ArchiveEntry[],
    private readonly intel: ThreatIntel,
  ) {
    // Files with nothing worth a tree are loaded when code that runs calls a function they define.
    for (const record of records) {
      if (record.body) continue;
      for (const path of record.skim.defines) {
        const list = this.definers.get(path);
        if (list) list.push(record);
        else this.definers.set(path, [record]);
      }
    }
    for (const record of records) this.byPath.set(record.file.path.toLowerCase(), record);
    for (const entry of entries)
      if ((entry.kind === 'text' || entry.kind === 'lua_in_asset') && entry.bytes)
        this.shipped.set(entry.path.toLowerCase(), entry.bytes);
  }

  loadDefinition(path: string): boolean {
    let list = this.definers.get(path);
    let key = path;
    // `ShopCSV.CSV.Parse(text)` of a file that defines `function CSV.Parse` on a local named
    // as the field it then stores it in (`ShopCSV.CSV = CSV`): the path without its first
    // part, if two parts are left.
    const dot = path.indexOf('.');
    if (!list && dot > 0 && path.indexOf('.', dot + 1) > 0) {
      key = path.slice(dot + 1);
      list = this.definers.get(key);
    }
    if (!list) return false;
    this.definers.delete(key);
    let loaded = false;
    for (const record of list) {
      const body = record.body ? undefined : this.parseQuiet(record);
      if (!body) continue;
      record.ran = true;
      this.emulator.runChunk(body, record.fc);
      loaded = true;
    }
    return loaded;
  }

  /**
   * Parses a file that had nothing worth a tree, to run its top level: its functions run
   * only when called, as the relevance found. Gives its tree, if it has one.
   */
  private parseQuiet(record: LuaFileRecord): Statement[] | undefined {
    parseRecord(record, this.relevance, false);
    const body = record.body;
    if (body) for (const f of record.functions ?? []) this.relevance.skippable.add(f.node);
    return body;
  }

  /** Global names loadSettings was asked about, answered or not. */
  private readonly settingsAsked = new Set<string>();

  /**
   * The data-only files by the global tables they build (see loadSettings), made at the first
   * question: going through every file for each global asked about was 1 % of the scan.
   */
  private settingsFiles: Map<string, LuaFileRecord[]> | null = null;

  loadSettings(name: string): boolean {
    if (this.settingsAsked.has(name)) return false;
    this.settingsAsked.add(name);
    if (this.settingsFiles === null) {
      this.settingsFiles = new Map();
      for (const record of this.records) {
        // (Data only: a library's file with tables of its own, such as S-boxes, is left to
        // the calls of its functions; see loadDefinition.)
        if (record.body || record.skim.functions.size > 0) continue;
        for (const root of new Set(tablesDefined(record).map(rootOf))) {
          const list = this.settingsFiles.get(root);
          if (list === undefined) this.settingsFiles.set(root, [record]);
          else list.push(record);
        }
      }
    }
    const files = this.settingsFiles.get(name);
    if (files === undefined) return false;
    const hash = wordHash(name);
    let loaded = false;
    for (const record of files) {
      if (record.body || record.ran) continue;
      // (Named as code, not only in a comment that the line-by-line search read.)
      if (!mayMention(record.skim, hash)) continue;
      if (!this.parseQuiet(record)) continue;
      this.runRecord(record);
      loaded = true;
    }
    return loaded;
  }

  /**
   * `include("x/y.lua")` runs that file there and then, as the game does: a handler
   * registered after an include can name a function the included file defines. Files with
   * nothing worth a tree are left to loadDefinition, unless what they return is used.
   */
  includeFile(path: string, from: FileContext, wantResult: boolean): Value[] | undefined {
    if (this.byPath.size <= 1) return undefined;
    const record = includedRecord(this.byPath, path, from.path);
    if (!record || record.fc === from) return undefined;
    const across = otherRealm(from.realm, record.fc.realm);
    if (across !== undefined) return this.runAcross(record, across);
    if (record.ran) return record.returned;
    if (!record.body) {
      // A file with nothing worth a tree is parsed only for what it returns (`local parts =
      // include("x/parts.lua")`), its functions left to run when called, or when it loads
      // files that have a tree.
      if (!wantResult || record.bytes.byteLength > SMALL_INCLUDED_FILE) {
        this.runQuietIncludes(record);
        if (!record.ran && (record.skim.defines.length > 0 || tablesDefined(record).length > 0)) {
          const list = this.quietIncluded.get(from.path);
          if (list) list.push(record);
          else this.quietIncluded.set(from.path, [record]);
        }
        return record.returned;
      }
      if (!this.parseQuiet(record)) return undefined;
    }
    this.runIncludedBefore(from.path, record);
    return this.runRecord(record);
  }

  /**
   * A client file included by server code (or a server file by client code) runs there too,
   * whatever its path says: the game runs what `include` names in the realm that calls it.
   * Its top level runs once more in that realm (its `if SERVER then` branch, skipped where
   * its path put it, runs now), and the file is reported as shared. (A client file's
   * "server half", reached only by an include its path hides, is a realm deception.)
   */
  private runAcross(record: LuaFileRecord, realm: Realm): Value[] | undefined {
    if (record.ranAcross) return undefined;
    record.ranAcross = true;
    const body = record.body ?? this.parseQuiet(record);
    if (!body) return undefined;
    record.file.realm = 'shared';
    return this.emulator.runChunk(body, inRealm(record.fc, realm));
  }

  /**
   * Runs, before a file with a tree that `includer` includes, the files with nothing worth a
   * tree it included earlier and whose functions that file names: the game ran them first,
   * and the file may keep at its top level what they made (`local U = Addon.Util`,
   * then `U.Decode(…)` in a handler). Left unrun, that local would stay nil, and loading
   * them later for their definitions could not mend it.
   */
  private runIncludedBefore(includer: string, record: LuaFileRecord): void {
    const earlier = this.quietIncluded.get(includer);
    if (earlier === undefined) return;
    this.quietIncluded.delete(includer);
    for (const quiet of earlier) {
      if (quiet.ran || quiet.body || !namesADefinition(record, quiet)) continue;
      if (this.parseQuiet(quiet)) this.runRecord(quiet);
    }
  }

  readAddonFile(path: string, where: string | undefined): string | undefined {
    if (this.shipped.size === 0) return undefined;
    const p = gamePath(path);
    const w = (where ?? 'DATA').toUpperCase();
    if (w === 'LUA') return undefined;
    // (DATA reads data/, then the files an addon ships under data_static/.)
    let bytes = p.includes('«')
      ? this.shippedMatching(p, w === 'DATA')
      : w === 'DATA'
        ? (this.shipped.get(`data/${p}`) ?? this.shipped.get(`data_static/${p}`))
        : this.shipped.get(p);
    // `addons/<its folder>/addon.json` from the game's root, the folder found at run time
    // (`debug.getinfo(1, "S").source`): the addon's own file, at the root of what is scanned.
    const own = w === 'DATA' ? undefined : OWN_FOLDER.exec(p);
    if (!bytes && own) {
      const rest = p.slice(own[0].length);
      bytes = rest.includes('«') ? this.shippedMatching(rest, false) : this.shipped.get(rest);
    }
    if (!bytes) return undefined;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return text.toString('latin1', 0, Math.min(text.length, MAX_STRING));
  }

  /**
   * A shipped file whose path matches `pattern`, its `«…»` parts standing for any name (the
   * map a preset is read for): the one that names code or a URL if several do, else the
   * first. Only patterns that name a folder and an extension: `«?»` alone could be anything.
   */
  private shippedMatching(pattern: string, data: boolean): Uint8Array | undefined {
    if (!/\/[^«]*$|^[^«]*\//.test(pattern) || !/\.\w+$/.test(pattern)) return undefined;
    const body = pattern
      .split(/«[^»]*»/)
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*');
    const re = new RegExp(`^${data ? '(?:data|data_static)/' : ''}${body}$`);
    let first: Uint8Array | undefined;
    let n = 0;
    for (const [path, bytes] of this.shipped) {
      if (!re.test(path)) continue;
      first ??= bytes;
      if (
        CODE_OR_URL.test(
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
            'latin1',
            0,
            Math.min(bytes.byteLength, MAX_STRING),
          ),
        )
      )
        return bytes;
      if (++n >= 16) break;
    }
    return first;
  }

  /** Phrases of the shipped translation files by key, read at the first lookup. */
  private phrases: Map<string, string> | undefined = undefined;

  phrase(key: string): string | undefined {
    if (this.phrases === undefined) {
      this.phrases = new Map();
      for (const [path, bytes] of this.shipped) {
        if (!TRANSLATION_FILE.test(path)) continue;
        const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        for (const line of text
          .toString('latin1', 0, Math.min(text.length, MAX_STRING))
          .split(/\r?\n/)) {
          const eq = line.indexOf('=');
          if (eq <= 0 || line.startsWith('#')) continue;
          const k = line.slice(0, eq).trim();
          // (The first language read gives the phrase; the others translate the same key.)
          if (!this.phrases.has(k)) this.phrases.set(k, line.slice(eq + 1));
        }
      }
    }
    return this.phrases.get(key);
  }

  /** Receivers of known backdoor names are judged by what they do (honeypots ban the sender). */
  exhaustiveNetName(name: string): boolean {
    return this.intel.backdoorNetNames.has(name.toLowerCase());
  }

  /** Runs the top level of a parsed file, once. */
  runRecord(record: LuaFileRecord): Value[] | undefined {
    record.ran = true;
    if (record.body) record.returned = this.emulator.runChunk(record.body, record.fc);
    return record.returned;
  }

  /**
   * Runs a file with nothing worth a tree when it includes, by a literal path, a file that
   * has a tree and has not run yet (directly or through other such files): a loader decides
   * the order its files run in and sets up what they read at their top level (`SF = {}`,
   * then `include("starfall/sflib.lua")`; `include("hud/sv_util.lua")`, then
   * `include("hud/sv_update.lua")`, whose `local U = HUD.Util` needs the first). Files are
   * otherwise run in path order, in which `sv_update.lua` comes before `sv_util.lua`.
   *
   * Files that a file with a tree includes are left to it, and so is a second loader of the
   * same files (the server's and the client's): its `SF = {}` would empty, in the one state
   * the emulator keeps for both realms, the table the files it no longer runs have filled.
   */
  runQuietIncludes(record: LuaFileRecord): void {
    if (record.body || !this.leadsToUnrunTree(record, new Set())) return;
    if (this.parseQuiet(record)) this.runRecord(record);
  }

  private includedFiles(record: LuaFileRecord): LuaFileRecord[] {
    if (record.included) return record.included;
    const out: LuaFileRecord[] = [];
    if (mayMention(record.skim, INCLUDE_HASH))
      for (const path of literalIncludes(record.file.text)) {
        const target = includedRecord(this.byPath, path, record.file.path);
        if (target !== undefined && target !== record) out.push(target);
      }
    return (record.included = out);
  }

  private leadsToUnrunTree(record: LuaFileRecord, seen: Set<LuaFileRecord>): boolean {
    seen.add(record);
    for (const target of this.includedFiles(record)) {
      if (!target.body) {
        if (!seen.has(target) && this.leadsToUnrunTree(target, seen)) return true;
        continue;
      }
      if (target.ran) continue;
      if (!this.includedByTree) {
        this.includedByTree = new Set();
        for (const r of this.records)
          if (r.body) for (const t of this.includedFiles(r)) this.includedByTree.add(t);
      }
      if (!this.includedByTree.has(target)) return true;
    }
    return false;
  }
}

/** Whether `user` may name, as an identifier, the last part of a function `definer` defines. */
/** Text that names code or a URL (see AddonRun.shippedMatching). */
const CODE_OR_URL = new RegExp(`${CODE_WORDS.source}|https?://`);

function namesADefinition(user: LuaFileRecord, definer: LuaFileRecord): boolean {
  for (const path of definer.skim.defines) {
    const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf(':'));
    if (mayMention(user.skim, wordHash(path.slice(cut + 1)))) return true;
  }
  for (const path of tablesDefined(definer)) {
    const cut = path.lastIndexOf('.');
    if (mayMention(user.skim, wordHash(path.slice(cut + 1)))) return true;
  }
  return false;
}

/** The global a table path starts from (`Addon` of `Addon.Rows.Bits`). */
function rootOf(path: string): string {
  const dot = path.indexOf('.');
  return dot < 0 ? path : path.slice(0, dot);
}

/** Files whose tables tablesDefined looks for: settings and data, not whole libraries. */
const SMALL_SETTINGS_FILE = 32 * 1024;
/** A table built at the top level: a line starting `Name.Path = {`. */
const TABLE_DEFINITION = /^([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)[ \t]*=[ \t]*\{/gm;
const tablesOf = new WeakMap<LuaFileRecord, string[]>();

/**
 * The global tables a small file with nothing worth a tree builds at its top level (an addon's
 * settings, `MyAddon.Config = { Host = "…" }`, or its presets). A later file of the same
 * includer that reads them is run with them, as the game runs it: a database host or a list of
 * grants they hold is what the rules judge.
 */
function tablesDefined(record: LuaFileRecord): string[] {
  let paths = tablesOf.get(record);
  if (paths !== undefined) return paths;
  paths = [];
  if (record.bytes.byteLength <= SMALL_SETTINGS_FILE) {
    const text = Buffer.from(
      record.bytes.buffer,
      record.bytes.byteOffset,
      record.bytes.byteLength,
    ).toString('latin1');
    TABLE_DEFINITION.lastIndex = 0;
    for (
      let m = TABLE_DEFINITION.exec(text);
      m !== null && paths.length < 100;
      m = TABLE_DEFINITION.exec(text)
    )
      paths.push(m[1]!);
  }
  tablesOf.set(record, paths);
  return paths;
}

/**
 * The realm an included file runs in besides its own, when the including code runs in one
 * realm and the file's path puts it in the other; else undefined.
 */
function otherRealm(includer: Realm, included: Realm): Realm | undefined {
  if (includer === 'shared' || included === 'shared' || includer === included) return undefined;
  return includer;
}

/** An addon's folder in the game's paths: `addons/x/`, or a folder not known (`«?»/`). */
const OWN_FOLDER = /^(?:addons\/(?:«[^»]*»|[^/«]+)|«[^»]*»)\//;

/** A path as the game's file functions take it: forward slashes, no leading slash, any case. */
function gamePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();
}

/** What follows `include` when it is called with a literal path (`("x.lua")`, ` "x.lua"`). */
const INCLUDE_ARGUMENT = /\s*\(?\s*(["'])([^"'\r\n]{1,260})\1/y;
/** The name's hash for the skim's filter (most files never name `include`). */
const INCLUDE_HASH = wordHash('include');

/** The paths a file includes by literal, in order (a superset: commented-out ones too). */
function literalIncludes(text: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf('include'); at >= 0 && out.length < 1000;) {
    const before = at > 0 ? text.charCodeAt(at - 1) : 32;
    // (Not the end of a longer name: `myinclude("x")`, `AddCSinclude`.)
    if (!/[\w.:]/.test(String.fromCharCode(before))) {
      INCLUDE_ARGUMENT.lastIndex = at + 7;
      const m = INCLUDE_ARGUMENT.exec(text);
      if (m) out.push(m[2]!);
    }
    at = text.indexOf('include', at + 7);
  }
  return out;
}

/**
 * Included files with nothing worth a tree are parsed for what they return up to this size: a
 * list of name pieces or settings. Parsing every module whose table is kept (`local lib =
 * include(…)`) cost the corpus 2.5 % more tokens and 8 % more emulation.
 */
const SMALL_INCLUDED_FILE = 4096;

/**
 * The file `include(path)` loads from the file at `from`: the game looks beside the including
 * file first, then from the root of the Lua search path (an addon's `lua/`, a gamemode's
 * folder under `gamemodes/`).
 */
function includedRecord(
  byPath: Map<string, LuaFileRecord>,
  path: string,
  from: string,
): LuaFileRecord | undefined {
  const p = gamePath(path);
  if (p === '' || p.includes('..')) return undefined;
  const dir = from.toLowerCase().replace(/[^/]*$/, '');
  const found = byPath.get(dir + p) ?? byPath.get(`lua/${p}`) ?? byPath.get(`gamemodes/${p}`);
  if (found) return found;
  // An addon kept under a folder of its own (`garrysmod/lua/…`): the one file ending so.
  let only: LuaFileRecord | undefined;
  for (const [key, record] of byPath) {
    if (!key.endsWith(p) || key.charCodeAt(key.length - p.length - 1) !== 47) continue;
    if (only) return undefined;
    only = record;
  }
  return only;
}

/** One Lua file on its way through the analysis. */
interface LuaFileRecord {
  file: FileAnalysis;
  /** The file's bytes: what the skim read, and what the parser must read for the same offsets. */
  bytes: Uint8Array;
  skim: Skim;
  /** What the skim's pass found about the bytes' encoding (the parser reuses it). */
  encoding: EncodingFacts;
  fc: FileContext;
  /** The parsed top level, once parsed. */
  body?: Statement[];
  /** Its top level has been emulated. */
  ran?: boolean;
  /** Its top level has also run in the other realm, included from a file there (see includeFile). */
  ranAcross: boolean;
  /** The addon's files it includes by a literal path, in order (see runQuietIncludes). */
  included?: LuaFileRecord[];
  /** What its top level returned when it ran (a module file's table), if anything. */
  returned?: Value[];
  /** Function facts of the parsed file (grows as lazy bodies are parsed). */
  functions?: FunctionFacts[];
  /** The file's index in the relevance, once parsed. */
  relevanceIndex?: number;
}

/**
 * A Lua file as the analysis gives it to the rules. A class rather than an object literal: a
 * literal holding a getter (`lines`) is built by the runtime property by property, at about
 * five times the cost (over 1 µs a file, some 3 ms per corpus pass).
 */
class AnalysedFile implements FileAnalysis {
  path: string;
  kind: ArchiveEntry['kind'];
  realm: FileAnalysis['realm'];
  text: string;
  lineCount: number;
  parse: FileAnalysis['parse'] = 'skimmed';
  parseErrors = 0;
  facts: FileAnalysis['facts'];
  obfuscatedIdentifiers: number;
  identifierCount: number;
  sha256: string | undefined;
  budgetExhausted = false;
  emulationSteps = 0;
  #lines: string[] | undefined;

  constructor(
    entry: ArchiveEntry,
    text: string,
    skim: Skim,
    encoding: EncodingFacts,
    bom: boolean,
  ) {
    this.path = entry.path;
    this.kind = entry.kind;
    this.realm = entry.kind === 'lua_in_asset' ? 'server' : realmOfPath(entry.path);
    this.text = text;
    this.lineCount = skim.lines;
    this.facts = {
      gluaOperatorCount: skim.gluaOperatorCount,
      cCommentCount: skim.cCommentCount,
      longestLineLength: skim.longestLineLength,
      invisibleCharCount: encoding.invisibleCharCount,
      hasBom: bom,
      invalidUtf8: encoding.invalidUtf8,
    };
    this.obfuscatedIdentifiers = skim.obfuscatedIdentifiers;
    this.identifierCount = skim.identifiers;
    // (Written here, even when there is none: added afterwards, the field gave files a shape
    // V8 dropped between scans; see taintSource in values.ts.)
    this.sha256 = entry.sha256 || undefined;
  }

  get lines(): string[] {
    return (this.#lines ??= splitLines(this.text));
  }
}

function skimFile(entry: ArchiveEntry, watch: SkimWatch): LuaFileRecord {
  const bytes = entry.bytes!;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const bom = hasUtf8Bom(text);
  const skim = skimLua(bytes, watch, bom ? 3 : 0);
  const encoding = scanEncodingOfBytes(bytes, bom ? 3 : 0);
  const file = new AnalysedFile(entry, text, skim, encoding, bom);
  const fc: FileContext = {
    path: entry.path,
    realm: file.realm,
    depth: 0,
    steps: 0,
    budget: budgetFor(bytes.byteLength),
    exhausted: false,
    shallow: false,
  };
  // Every field written, the ones filled in later too (see AnalysedFile's sha256).
  return {
    file,
    bytes,
    skim,
    encoding,
    fc,
    body: undefined,
    ran: undefined,
    ranAcross: false,
    included: undefined,
    returned: undefined,
    functions: undefined,
    relevanceIndex: undefined,
  };
}

/**
 * The text's lines, split on `\r\n`, `\n` or a lone `\r`. Splitting on a one- or two-char
 * string is about twice as fast as on the regex `/\r?\n|\r/`, and gives the same lines when
 * the text has no `\r` at all, or only in `\r\n` pairs (no line then holds a `\r` or `\n`).
 */
function splitLines(text: string): string[] {
  if (text.indexOf('\r') < 0) return text.split('\n');
  const lines = text.split('\r\n');
  for (const line of lines)
    if (line.indexOf('\r') >= 0 || line.indexOf('\n') >= 0) return text.split(/\r?\n|\r/);
  return lines;
}

/**
 * Parses a skimmed file (lazily unless `whole`) and adds its functions to the relevance,
 * every one of them when `everything`.
 */
function parseRecord(
  record: LuaFileRecord,
  relevance: Relevance,
  whole: boolean,
  everything = false,
): void {
  const file = record.file;
  let parsed: ParseResult | undefined;
  try {
    // The skim already decoded the text and scanned its encoding; no rule reads comments.
    const decoded = { text: file.text, encoding: record.encoding };
    parsed = parseLua(
      record.bytes,
      whole
        ? { watch: FUNCTION_WATCH, decoded, comments: false }
        : { watch: FUNCTION_WATCH, skim: record.skim, decoded, comments: false },
    );
  } catch {
    parsed = undefined;
  }
  const body = parsed?.chunk.body ?? [];
  file.parse = !parsed
    ? 'failed'
    : parsed.errors.length === 0
      ? 'ok'
      : body.some((s) => s.type !== 'ErrorStatement')
        ? 'recovered'
        : 'failed';
  file.parseErrors = parsed?.errors.length ?? 1;
  if (parsed) file.facts = parsed.facts;
  if (!parsed) return;
  record.body = body;
  record.functions = parsed.functions ?? [];
  // The game does not load a file that does not compile: no other file can call what it
  // defines (a README sniffed as Lua "defines" `function name should…`), so its paths link
  // callers in the file itself only.
  const broken = parsed.errors.length > 0;
  if (broken) for (const f of record.functions) if (f.name !== undefined) f.local = true;
  record.relevanceIndex = relevance.add(record.functions, everything);
  relevance.texts[record.relevanceIndex] = record.file.text;
  addAssignments(relevance, parsed, record.relevanceIndex, broken);
}

/**
 * Hands the relevance what a parse noted about assignments: sink aliases and tables of
 * functions, of file `file`. In a file that does not compile, even global ones are its own
 * (see parseRecord).
 */
function addAssignments(
  relevance: Relevance,
  parsed: Pick<ParseResult, 'aliases' | 'localAliases' | 'tables' | 'localTables'>,
  file: number | undefined,
  broken: boolean,
): void {
  relevance.addAliases(parsed.aliases, broken ? file : undefined);
  relevance.addAliases(parsed.localAliases, file);
  relevance.addTables(parsed.tables, file, broken);
  relevance.addTables(parsed.localTables, file, true);
}

/**
 * The addon-wide fixpoint: a function that calls a sink-carrying function by name is worth
 * emulating too. Files and lazy bodies that may mention such a name (Bloom filter, then an
 * exact word search) are parsed now and their facts added, until no new name appears.
 * Returns false when cancelled.
 */
function settleRelevance(
  records: LuaFileRecord[],
  relevance: Relevance,
  isCancelled: (() => boolean) | undefined,
): boolean {
  // Names only ever get added: each file is searched once per name, in the round after the
  // name appears (every round visits every file). A path (`a.b:c`) is looked for as written;
  // the Bloom filter is asked about its first and last names. Local paths are looked for in
  // their own file only.
  const knownSet = new Set<string>();
  const searchedLocal = new Map<LuaFileRecord, Set<string>>();
  // The lazy bodies of parsed files, until one of them is parsed (see lazyRanges).
  const lazy = new Map<LuaFileRecord, number[]>();
  for (let round = 0; round < 50; round++) {
    const fresh = freshNamesByFirst(relevance.names, knownSet);
    let changed = false;
    for (const record of records) {
      if (isCancelled?.()) return false;
      const offsets: number[] = [];
      const locals =
        record.relevanceIndex === undefined
          ? undefined
          : relevance.localNames.get(record.relevanceIndex);
      if (locals !== undefined) {
        let done = searchedLocal.get(record);
        if (!done) searchedLocal.set(record, (done = new Set<string>()));
        for (const name of locals) {
          if (done.has(name)) continue;
          done.add(name);
          searchUses(record.file.text, name, searchedParts(record, lazy), offsets);
        }
      }
      // Paths sharing their first name (`DarkRP.a`, `DarkRP.b`) ask the Bloom filter about it
      // once: each question is a read at a random place of the file's filter, often a cache miss.
      for (const group of fresh) {
        if (!mayMention(record.skim, group.first)) continue;
        for (const { name, last } of group.names) {
          if (last !== group.first && !mayMention(record.skim, last)) continue;
          searchUses(record.file.text, name, searchedParts(record, lazy), offsets);
        }
      }
      if (offsets.length === 0) continue;
      if (!record.body) {
        parseRecord(record, relevance, false);
        changed = true;
      }
      if (parseLazyCallers(record, offsets, relevance)) {
        changed = true;
        lazy.delete(record);
      }
    }
    if (!changed) return true;
    relevance.settleNames();
  }
  return true;
}

/**
 * Adds to `offsets` where `text` (in `ranges`) uses the relevant name `name`. A table's
 * computed-key calls (`cmds[]`) are looked for as the table's name followed by `[`: its
 * other uses (`cmds.hi(p)`) call no function of it by an unknown key.
 */
function searchUses(
  text: string,
  name: string,
  ranges: number[] | undefined,
  offsets: number[],
): void {
  const word = searchedName(name);
  if (name.startsWith('*:')) {
    // An entity method called on any object (`ent:ApplyConfig(`): the method after a colon.
    methodCallOffsets(text, word, ranges, offsets);
    return;
  }
  const indexed = word !== name;
  for (const at of wordOffsets(text, word, ranges)) {
    if (indexed && text.charCodeAt(at + word.length) !== 91 /* [ */) continue;
    offsets.push(at);
  }
}

/** Where `text` (in `ranges`) calls a method `:name` on something (a colon, then the name). */
function methodCallOffsets(
  text: string,
  name: string,
  ranges: number[] | undefined,
  offsets: number[],
): void {
  const needle = `:${name}`;
  const count = ranges === undefined ? 2 : ranges.length;
  for (let r = 0; r < count; r += 2) {
    const from = ranges === undefined ? 0 : ranges[r]!;
    const to = ranges === undefined ? text.length : ranges[r + 1]!;
    for (
      let at = text.indexOf(needle, from);
      at >= 0 && at < to;
      at = text.indexOf(needle, at + 1)
    ) {
      const next = text.charCodeAt(at + needle.length) | 0;
      // (Not a longer name: the next byte is no identifier byte.)
      if (
        (next >= 48 && next <= 57) ||
        (next >= 65 && next <= 90) ||
        (next >= 97 && next <= 122) ||
        next === 95
      )
        continue;
      offsets.push(at + 1);
    }
  }
}

/** Names of one first name (hash), with the hash of each one's last name. */
interface NameGroup {
  first: number;
  names: Array<{ name: string; last: number }>;
}

/** The names not in `known` yet (then added to it), grouped by their first name's hash. */
function freshNamesByFirst(names: Iterable<string>, known: Set<string>): NameGroup[] {
  const groups: NameGroup[] = [];
  const byFirst = new Map<number, NameGroup>();
  for (const name of names) {
    if (known.has(name)) continue;
    known.add(name);
    const parts = searchedName(name).split(/[.:]/);
    const first = wordHash(parts[0]!);
    let group = byFirst.get(first);
    if (!group) {
      byFirst.set(first, (group = { first, names: [] }));
      groups.push(group);
    }
    group.names.push({ name, last: wordHash(parts[parts.length - 1]!) });
  }
  return groups;
}

/**
 * Where to search a file for callers: in a parsed file only uses in lazy bodies matter (see
 * parseLazyCallers), so its lazy-body ranges, kept in `lazy` until one of them is parsed;
 * undefined (the whole text) for a file not parsed yet.
 */
function searchedParts(
  record: LuaFileRecord,
  lazy: Map<LuaFileRecord, number[]>,
): number[] | undefined {
  if (!record.body || !record.functions) return undefined;
  let ranges = lazy.get(record);
  if (!ranges) lazy.set(record, (ranges = lazyRanges(record.functions)));
  return ranges;
}

/**
 * The lazy bodies of a parsed file as `[from, to)` pairs in text order, the rest being parsed
 * already: half the bytes a whole-text search for callers would read (42 of 86 MB per corpus
 * pass). Bodies less than 256 bytes apart share a pair: searching across a short gap costs
 * less than starting another search, and a use found in the gap is in no body (ignored).
 */
function lazyRanges(functions: FunctionFacts[]): number[] {
  const bodies: number[] = [];
  let sorted = true;
  for (const f of functions) {
    if (f.node.lazy === undefined) continue;
    const from = f.node.lazy.offset;
    if (bodies.length > 0 && bodies[bodies.length - 2]! > from) sorted = false;
    bodies.push(from, f.node.endOffset);
  }
  // Bodies parsed later append their nested functions: sort by where each starts. (Most
  // lists are in order: the order list is only built for the others.)
  const count = bodies.length / 2;
  // Each body as one number, its start above its index, sorted as numbers: the same order
  // as a stable sort by start, with no comparator (a closure per call, see
  // SharedViews.callsWhere). Exact: a text's offsets are below 2^30, a file's bodies far
  // fewer than 2^23.
  let order: Float64Array | undefined;
  let span = 1;
  if (!sorted) {
    while (span < count) span *= 2;
    order = new Float64Array(count);
    for (let j = 0; j < count; j++) order[j] = bodies[2 * j]! * span + j;
    order.sort();
  }
  const ranges: number[] = [];
  for (let b = 0; b < count; b++) {
    const j = order === undefined ? 2 * b : 2 * (order[b]! % span);
    const from = bodies[j]!;
    const to = bodies[j + 1]!;
    const n = ranges.length;
    if (n > 0 && from - ranges[n - 1]! < 256) ranges[n - 1] = Math.max(ranges[n - 1]!, to);
    else ranges.push(from, to);
  }
  return ranges;
}

/** Parses the lazy bodies that contain one of `offsets`, adding their facts to the file's. */
function parseLazyCallers(record: LuaFileRecord, offsets: number[], relevance: Relevance): boolean {
  const functions = record.functions;
  if (!functions) return false;
  let changed = false;
  // (See parseRecord: what a file that does not compile defines is only its own.)
  const broken = record.file.parseErrors > 0;
  // A body parsed here may leave nested functions lazy; they are appended to the list, and
  // this loop reaches them too (one holding an offset is parsed in turn).
  for (let i = 0; i < functions.length; i++) {
    const facts = functions[i]!;
    const node = facts.node;
    if (node.lazy === undefined) continue;
    // The body only: a function's own name (`function ENT:Init()`) is no call.
    const from = node.lazy.offset;
    const to = node.endOffset;
    if (!offsets.some((at) => at >= from && at < to)) continue;
    const parsed = parseLazy(node, FUNCTION_WATCH);
    const { own, functions: nested } = parsed;
    addAssignments(relevance, parsed, record.relevanceIndex, broken);
    facts.watched = own.watched;
    facts.sink = own.sink;
    facts.calls = own.calls;
    if (record.relevanceIndex !== undefined) relevance.callsReplaced(record.relevanceIndex, i);
    const base = functions.length;
    for (const f of nested) {
      f.parent = f.parent < 0 ? i : base + f.parent;
      if (broken && f.name !== undefined) f.local = true;
      functions.push(f);
    }
    changed = true;
  }
  return changed;
}
