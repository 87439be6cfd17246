// A code block with dangerous function names highlighted and look-alike runs folded.
import { useTranslation } from 'react-i18next';
import { foldSimilarLines, splitDangerous } from '../codeSnippet.js';

export function CodeSnippet({ code, testId }: { code: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <pre
      data-testid={testId}
      className="overflow-x-auto rounded-lg bg-gray-950 p-4 font-mono text-xs leading-relaxed text-gray-100"
    >
      <code>
        {foldSimilarLines(code).map((row, rowIndex) =>
          row.kind === 'hidden' ? (
            <span key={rowIndex} className="block text-gray-500 italic">
              {t('results.hiddenLines', { count: row.count })}
            </span>
          ) : (
            <span key={rowIndex} className="block">
              {splitDangerous(row.text).map((piece, pieceIndex) =>
                piece.dangerous ? (
                  <mark
                    key={pieceIndex}
                    data-dangerous="true"
                    className="rounded bg-red-500/25 px-0.5 font-semibold text-red-300"
                  >
                    {piece.text}
                  </mark>
                ) : (
                  <span key={pieceIndex}>{piece.text}</span>
                ),
              )}
              {row.text === '' ? '\u00a0' : null}
            </span>
          ),
        )}
      </code>
    </pre>
  );
}
