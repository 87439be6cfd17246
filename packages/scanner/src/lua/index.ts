// The GLua front end of the scanner: tokens for token-level scanning, a syntax tree with
// exact positions for the analysis, and a tree walker.
import { Diagnostics, Lexer, type Token } from './lexer.js';
import { decodeSource, hasUtf8Bom } from './source.js';

export type * from './ast.js';
export type { Token, TokenKind } from './lexer.js';
export {
  parseLua,
  functionBody,
  parseLazy,
  pathName,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_TOKENS,
  type ParseOptions,
} from './parser.js';
export {
  skimLua,
  compileSkimWatch,
  mayMention,
  wordHash,
  wordOffsets,
  type Skim,
  type SkimWatch,
  type SkimmedFunction,
} from './skim.js';
export { walk, childrenOf, pushChildren, type Visitor } from './walk.js';

/** Tokens kept by `tokenize` unless told otherwise: ~250 MB of token objects at most. */
export const DEFAULT_TOKENIZE_LIMIT = 2_000_000;

/**
 * The tokens of the source (EOF excluded), comments and whitespace skipped, at most
 * `maxTokens` of them so that a huge hostile file cannot exhaust memory (use forEachToken
 * to see them all). Works on any bytes, however broken: malformed parts become `Invalid`.
 */
export function tokenize(
  source: Uint8Array | string,
  options: { maxTokens?: number } = {},
): Token[] {
  const limit = options.maxTokens ?? DEFAULT_TOKENIZE_LIMIT;
  const tokens: Token[] = [];
  forEachToken(source, (t) => {
    tokens.push(t);
    return tokens.length < limit;
  });
  return tokens;
}

/**
 * Streams the tokens of the source to `visit` without keeping them, for token-level
 * scanning of files too big for an array of tokens. Return false to stop early.
 */
export function forEachToken(
  source: Uint8Array | string,
  visit: (token: Token) => void | boolean,
): void {
  const text = decodeSource(source);
  const bytes = typeof source === 'string' ? undefined : source;
  const lexer = new Lexer(text, new Diagnostics(0), hasUtf8Bom(text) ? 3 : 0, true, bytes);
  for (;;) {
    const t = lexer.next();
    if (t.kind === 'EOF' || visit(t) === false) return;
  }
}
