// What the archive layer hands to the analysis: a virtual file tree read without ever
// touching the disk, plus what was wrong with the archive itself.

export interface ArchiveLimits {
  /** Largest archive accepted, in bytes (default 1 GiB). */
  maxArchiveBytes: number;
  /** Most entries read, nested archives included (default 100 000). */
  maxEntries: number;
  /** Most bytes inflated in total, counted on bytes actually produced (default 2 GiB). */
  maxTotalInflatedBytes: number;
  /** Most bytes kept for one text entry (default 64 MiB). */
  maxTextEntryBytes: number;
  /** Deepest nesting of .zip/.gma inside each other (default 3). */
  maxNestingDepth: number;
  /**
   * Most bytes held in memory at once by nested .zip archives being opened (a nested zip
   * needs random access, so it is buffered; default 256 MiB). Optional: added after the fact.
   */
  maxNestedArchiveBytes?: number;
  /** Most bytes kept in total for `lua`, `lua_in_asset` and `text` entries (default 256 MiB). */
  maxKeptTextBytes?: number;
}

export type EntryKind =
  /** A .lua file, or any text that holds Lua (decided by content). */
  | 'lua'
  /** Lua text found in a file whose name says it is something else (.vmt, .txt, .dat…): GB-014. */
  | 'lua_in_asset'
  /** Another text file (kept for string searches: configs, .json, .txt). */
  | 'text'
  /** gmsv_/gmcl_ .dll/.so or other native code: GB-011. */
  | 'binary_module'
  /** A .bsp map: its entity lump is kept (GB-013). */
  | 'map'
  /** Anything else (models, sounds, textures): only counted. */
  | 'asset';

export interface ArchiveEntry {
  /** Normalised path with `/`; a nested archive's entries are `outer.zip/inner/path`. */
  path: string;
  /** Inflated size in bytes. */
  size: number;
  kind: EntryKind;
  /** Content for `lua`, `lua_in_asset` and `text` entries. */
  bytes?: Uint8Array;
  /** SHA-256 hex of the content, for binary modules (allowlisting) and Lua files. */
  sha256?: string;
  /** Printable strings (≥ 6 chars) found in a binary module, capped. */
  strings?: string[];
  /** The entity lump text of a map. */
  mapEntities?: string;
  /** Nesting depth: 0 for entries of the uploaded archive itself. */
  depth: number;
}

export type ArchiveFindingKind =
  | 'path_traversal'
  | 'absolute_path'
  | 'symlink'
  | 'encrypted_entry'
  | 'zip_bomb'
  | 'overlapping_entries'
  | 'limit_reached'
  | 'corrupt_entry'
  | 'nested_too_deep';

export interface ArchiveFinding {
  kind: ArchiveFindingKind;
  path: string;
  detail: string;
}

export interface ArchiveContents {
  entries: ArchiveEntry[];
  findings: ArchiveFinding[];
  /** Names of the limits that stopped reading early (empty when all was read). */
  limitsReached: string[];
  /** SHA-256 hex of the uploaded archive bytes (or of the folder's files for a folder). */
  sha256: string;
  /** Every file seen, assets included. */
  fileCount: number;
}

/** The whole input could not be read as an archive at all. */
export class UnusableArchiveError extends Error {
  constructor(
    readonly code: 'not_zip' | 'corrupt' | 'too_large' | 'empty',
    message: string,
  ) {
    super(message);
    this.name = 'UnusableArchiveError';
  }
}
