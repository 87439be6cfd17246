// An inline message box (role=alert for problems) used for upload refusals and notices.
import type { ReactNode } from 'react';
import { CircleAlert, Info, TriangleAlert } from 'lucide-react';

export type NoticeTone = 'error' | 'warning' | 'info';

const TONE_CLASSES: Record<NoticeTone, string> = {
  error:
    'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200',
  warning:
    'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-200',
  info: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950/40 dark:text-sky-200',
};

const TONE_ICONS = { error: CircleAlert, warning: TriangleAlert, info: Info } as const;

export function Notice({
  tone,
  children,
  testId,
}: {
  tone: NoticeTone;
  children: ReactNode;
  testId?: string;
}) {
  const Icon = TONE_ICONS[tone];
  return (
    <div
      role={tone === 'info' ? 'status' : 'alert'}
      data-testid={testId}
      className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm ${TONE_CLASSES[tone]}`}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div>{children}</div>
    </div>
  );
}
