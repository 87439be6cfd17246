// Prepares a threat's code snippet for display: marks the dangerous function names and folds
// long runs of look-alike lines (e.g. a wall of byte-array rows) into a hidden-lines note.

/** Lua and Garry's Mod functions a reviewer should notice at a glance. */
export const DANGEROUS_FUNCTIONS = [
  'RunString',
  'RunStringEx',
  'CompileString',
  'CompileFile',
  'loadstring',
  'setfenv',
  'getfenv',
  'http.Fetch',
  'http.Post',
  'HTTP',
  'SetUserGroup',
  'SetSecondaryUserGroup',
  'game.ConsoleCommand',
  'RunConsoleCommand',
  'BroadcastLua',
  'SendLua',
  'net.ReadString',
  'net.ReadData',
  'util.Decompress',
  'util.Base64Decode',
  'string.char',
  'string.reverse',
  'debug.getinfo',
  'debug.sethook',
  'debug.getregistry',
  'file.Write',
  'file.Append',
  'file.Read',
  'file.Delete',
  'sql.Query',
  '_G',
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Longest names first so `RunStringEx` is not cut into `RunString` + `Ex`.
const DANGEROUS_PATTERN = new RegExp(
  `(?<![\\w.])(${[...DANGEROUS_FUNCTIONS]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|')})(?!\\w)`,
  'g',
);

export interface SnippetPiece {
  text: string;
  dangerous: boolean;
}

export function splitDangerous(line: string): SnippetPiece[] {
  const pieces: SnippetPiece[] = [];
  let last = 0;
  for (const match of line.matchAll(DANGEROUS_PATTERN)) {
    const start = match.index;
    if (start > last) pieces.push({ text: line.slice(last, start), dangerous: false });
    pieces.push({ text: match[0], dangerous: true });
    last = start + match[0].length;
  }
  if (last < line.length || pieces.length === 0)
    pieces.push({ text: line.slice(last), dangerous: false });
  return pieces;
}

export type SnippetRow = { kind: 'line'; text: string } | { kind: 'hidden'; count: number };

/** Runs longer than this many look-alike lines are folded. */
const RUN_KEEP = 2;
const RUN_FOLD_ABOVE = 4;

/** Two lines look alike when they differ only in numbers, string contents and spacing. */
function shapeOf(line: string): string {
  return line
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\d+/g, '0')
    .replace(/\s+/g, ' ')
    .trim();
}

export function foldSimilarLines(snippet: string): SnippetRow[] {
  const lines = snippet.split(/\r?\n/);
  const rows: SnippetRow[] = [];
  let index = 0;
  while (index < lines.length) {
    const shape = shapeOf(lines[index] ?? '');
    let end = index + 1;
    while (shape !== '' && end < lines.length && shapeOf(lines[end] ?? '') === shape) end += 1;
    const run = lines.slice(index, end);
    if (run.length > RUN_FOLD_ABOVE) {
      for (const text of run.slice(0, RUN_KEEP)) rows.push({ kind: 'line', text });
      rows.push({ kind: 'hidden', count: run.length - RUN_KEEP });
    } else {
      for (const text of run) rows.push({ kind: 'line', text });
    }
    index = end;
  }
  return rows;
}
