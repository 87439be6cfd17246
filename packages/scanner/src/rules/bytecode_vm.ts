// GB-012: LuaJIT bytecode, string.dump, or a Lua-in-Lua interpreter (opcode table + dispatch
// loop) that hides what the addon really calls.
import { makeFinding } from './support.js';
import { execAtLiteral, firstLineMatching } from './textSearch.js';
import { sharedViews, TEXT_MARKS } from './shared.js';
import type { Finding, Rule } from './types.js';

// LuaJIT bytecode starts with ESC 'L' 'J'; it shows as the escape `\27LJ` in source, or as the
// raw byte in a file that embeds a dump.
const BYTECODE_MARK = new RegExp('\\\\27LJ|' + String.fromCharCode(27) + 'LJ|string\\.dump\\s*\\(');
const DISPATCH =
  /while\s+\w+\s*<=?\s*#\s*\w+\s+do[\s\S]{0,200}?local\s+(\w+)\s*=\s*\w+\[\s*\w+\s*\]/;

export const rule: Rule = {
  meta: {
    id: 'bytecode_vm',
    category: 'advanced_obfuscation',
    severity: 'medium',
    techniques: ['GB-012'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'Bytecode or custom interpreter',
        description:
          'The addon carries bytecode, string.dump, or a small virtual machine running an opcode table. Its real behaviour is hidden from readers; Sentinelle emulates it where it can.',
        recommendation:
          'Treat the addon as opaque: ask the author for readable source, and remove it if it also contacts remote hosts.',
      },
      fr: {
        title: 'Bytecode ou interpréteur maison',
        description:
          "L'addon contient du bytecode, string.dump, ou une petite machine virtuelle qui exécute une table d'opcodes. Son comportement réel est caché au lecteur ; Sentinelle l'émule quand elle le peut.",
        recommendation:
          "Considérez l'addon comme opaque : demandez à l'auteur un code lisible, et supprimez-le s'il contacte aussi des hôtes distants.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const shared = sharedViews(context);
    const out: Finding[] = [];
    for (const f of analysis.files) {
      // Every bytecode mark holds one of the literals of TEXT_MARKS.bytecode: files without
      // them are skipped by the run's one pass over the text.
      const marks = shared.textMarks(f);
      let line = (marks & TEXT_MARKS.bytecode) !== 0 ? firstLineMatching(f, BYTECODE_MARK) : -1;
      let pattern = 'bytecode / string.dump';
      // (Without a `while` in the text, the pass's mark says so, there is no dispatch loop.)
      if (line < 0 && (marks & TEXT_MARKS.loop) !== 0) {
        // A dispatch loop: `while pc <= #p do local op = p[pc] if op == 1 … elseif op == 2 …`
        const text = f.text;
        const dispatch = execAtLiteral(f, DISPATCH, 'while', shared);
        if (dispatch) {
          const op = dispatch[1]!;
          const branches = text.match(new RegExp(`\\b${op}\\s*==\\s*\\d+`, 'g'))?.length ?? 0;
          if (branches >= 4) {
            line = text.slice(0, dispatch.index).split('\n').length - 1;
            pattern = `opcode dispatch loop (${branches} opcodes)`;
          }
        }
      }
      if (line < 0) continue;
      const viaVm = analysis.calls.filter(
        (c) =>
          c.file === f.path &&
          (c.via === 'decoded' || c.via === 'callback') &&
          /^(http\.|HTTP|RunString|CompileString)/.test(c.api),
      );
      out.push(
        makeFinding(rule, analysis, {
          severity: viaVm.length ? 'high' : 'medium',
          confidence: viaVm.length ? 0.85 : 0.5,
          pattern,
          file: f.path,
          line: line + 1,
          ...(viaVm.length
            ? { decoded: `emulated calls: ${[...new Set(viaVm.map((c) => c.api))].join(', ')}` }
            : {}),
          techniques: viaVm.length ? ['GB-012', 'GB-028'] : ['GB-012'],
        }),
      );
    }
    return out;
  },
};
