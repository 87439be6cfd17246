// The GLua front end of the scanner: tokens for token-level scanning, a syntax tree with
// exact positions for the analysis, and a tree walker.
import { Diagnostics, Lexer, type Token } from './lexer.js';
import { decodeSource, hasUtf8Bom } from './source.js';

export type * from './ast.js';
export type { Token, TokenKind } from './lexer.js';
export { parseLua, DEFAULT_MAX_DEPTH, type ParseOptions } from './parser.js';
export { walk, childrenOf, type Visitor } from './walk.js';

/**
 * Every token of the source (EOF excluded), comments and whitespace skipped. Works on any
 * bytes, however broken: malformed parts become `Invalid` tokens.
 */
export function tokenize(source: Uint8Array | string): Token[] {
  const text = decodeSource(source);
  const lexer = new Lexer(text, new Diagnostics(0), hasUtf8Bom(text) ? 3 : 0);
  const tokens: Token[] = [];
  for (;;) {
    const t = lexer.next();
    if (t.kind === 'EOF') return tokens;
    tokens.push(t);
  }
}
