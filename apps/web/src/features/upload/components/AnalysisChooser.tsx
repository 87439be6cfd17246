// The two analysis buttons of the home screen: standard (needs sign-in and 2 credits) and
// advanced AI (announced as "soon"; choosing it only says it is not available).
import { useTranslation } from 'react-i18next';
import { Brain, ShieldCheck } from 'lucide-react';
import { ANALYSIS_TYPES, SCAN_COST, type ScanType } from '@sentinelle/contracts';
import { Notice, type NoticeTone } from '../../../components/ui/Notice.js';
import { useCurrentUser } from '../../auth/hooks/useCurrentUser.js';
import { useTransientMessage } from '../hooks/useTransientMessage.js';

type ChooserMessage =
  | { kind: 'no_file' }
  | { kind: 'login_required' }
  | { kind: 'insufficient_credits'; balance: number; required: number }
  | { kind: 'ai_unavailable' };

const MESSAGE_TONES: Record<ChooserMessage['kind'], NoticeTone> = {
  no_file: 'error',
  login_required: 'warning',
  insufficient_credits: 'warning',
  ai_unavailable: 'info',
};

export interface AnalysisChooserProps {
  hasFile: boolean;
  onStart: (scanType: ScanType) => void;
}

export function AnalysisChooser({ hasFile, onStart }: AnalysisChooserProps) {
  const { t, i18n } = useTranslation();
  const { user } = useCurrentUser();
  const percent = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en', {
    maximumFractionDigits: 1,
  });
  const [message, setMessage] = useTransientMessage<ChooserMessage>();

  const chooseStandard = () => {
    if (!hasFile) return setMessage({ kind: 'no_file' });
    if (!user) return setMessage({ kind: 'login_required' });
    if (user.credits < SCAN_COST.standard)
      return setMessage({
        kind: 'insufficient_credits',
        balance: user.credits,
        required: SCAN_COST.standard,
      });
    onStart('standard');
  };

  const messageText = (m: ChooserMessage): string => {
    switch (m.kind) {
      case 'no_file':
        return t('upload.errors.noFile');
      case 'login_required':
        return t('upload.errors.loginRequired');
      case 'insufficient_credits':
        return t('upload.errors.insufficientCredits', { balance: m.balance, required: m.required });
      case 'ai_unavailable':
        return t('upload.aiUnavailable');
    }
  };

  return (
    <div className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <button
          type="button"
          data-testid="standard-analysis-button"
          onClick={chooseStandard}
          className="flex flex-col items-start gap-1 rounded-xl bg-emerald-600 px-5 py-4 text-left text-white shadow transition-colors hover:bg-emerald-500"
        >
          <span className="flex items-center gap-2 font-semibold">
            <ShieldCheck className="size-5" aria-hidden />
            {t('upload.standard.title')}
          </span>
          <span className="text-sm text-emerald-50/90">
            {t('upload.standard.details', {
              min: ANALYSIS_TYPES.standard.minSeconds,
              max: ANALYSIS_TYPES.standard.maxSeconds,
              reliability: percent.format(ANALYSIS_TYPES.standard.reliabilityPercent),
            })}
          </span>
          <span
            className="text-xs font-medium text-emerald-50"
            data-testid="standard-analysis-cost"
          >
            {t('upload.cost', { count: SCAN_COST.standard })}
          </span>
        </button>
        <button
          type="button"
          data-testid="ai-analysis-button"
          onClick={() => setMessage({ kind: 'ai_unavailable' })}
          className="relative flex flex-col items-start gap-1 rounded-xl border border-violet-300 bg-white px-5 py-4 text-left transition-colors hover:bg-violet-50 dark:border-violet-700 dark:bg-gray-800 dark:hover:bg-violet-950/30"
        >
          <span className="absolute top-3 right-3 rounded-full bg-violet-600 px-2 py-0.5 text-xs font-semibold text-white">
            {t('upload.soon')}
          </span>
          <span className="flex items-center gap-2 font-semibold">
            <Brain className="size-5 text-violet-500" aria-hidden />
            {t('upload.ai.title')}
          </span>
          <span className="text-sm text-gray-600 dark:text-gray-400">
            {t('upload.ai.details', {
              min: ANALYSIS_TYPES.ia.minSeconds / 60,
              max: ANALYSIS_TYPES.ia.maxSeconds / 60,
              reliability: percent.format(ANALYSIS_TYPES.ia.reliabilityPercent),
            })}
          </span>
          <span className="text-xs font-medium text-gray-500 dark:text-gray-400">
            {t('upload.cost', { count: SCAN_COST.ia })}
          </span>
        </button>
      </div>
      {user && (
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="credit-balance">
          {t('upload.balance', { count: user.credits })}
        </p>
      )}
      {message && (
        <Notice tone={MESSAGE_TONES[message.kind]} testId={`notice-${message.kind}`}>
          {messageText(message)}
        </Notice>
      )}
    </div>
  );
}
