// Floating button that appears once the page is scrolled past SCROLL_TO_TOP_PX (spec §2).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowUp } from 'lucide-react';
import { SCROLL_TO_TOP_PX } from '@sentinelle/contracts';

export function ScrollToTopButton() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TO_TOP_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  if (!visible) return null;
  return (
    <button
      type="button"
      data-testid="scroll-to-top"
      aria-label={t('common.scrollToTop')}
      title={t('common.scrollToTop')}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      className="fixed right-6 bottom-6 z-40 rounded-full bg-emerald-600 p-3 text-white shadow-lg hover:bg-emerald-500"
    >
      <ArrowUp className="size-5" aria-hidden />
    </button>
  );
}
