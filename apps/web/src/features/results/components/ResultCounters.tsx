// The four counters of a result: files analysed, Lua files, lines scanned, threats found.
import { useTranslation } from 'react-i18next';
import type { ScanResult } from '@sentinelle/contracts';

export function ResultCounters({ result }: { result: ScanResult }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  const counters = [
    { key: 'files', value: result.file_count },
    { key: 'luaFiles', value: result.lua_file_count },
    { key: 'lines', value: result.total_lines_scanned },
    { key: 'threats', value: result.threats.length },
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {counters.map(({ key, value }) => (
        <div
          key={key}
          className="rounded-xl border border-gray-200 bg-white p-4 text-center dark:border-gray-700/70 dark:bg-gray-800"
        >
          <dd className="text-2xl font-bold" data-testid={`counter-${key}`}>
            {number.format(value)}
          </dd>
          <dt className="text-sm text-gray-600 dark:text-gray-400">
            {t(`results.counters.${key}`)}
          </dt>
        </div>
      ))}
    </dl>
  );
}
