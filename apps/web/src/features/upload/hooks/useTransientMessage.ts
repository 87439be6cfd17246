// A message that hides itself after UPLOAD_MESSAGE_HIDE_MS (spec §5: upload messages auto-hide).
import { useCallback, useEffect, useState } from 'react';
import { UPLOAD_MESSAGE_HIDE_MS } from '@sentinelle/contracts';

export function useTransientMessage<M>() {
  const [message, setMessage] = useState<M | null>(null);

  useEffect(() => {
    if (message === null) return;
    const timer = window.setTimeout(() => setMessage(null), UPLOAD_MESSAGE_HIDE_MS);
    return () => window.clearTimeout(timer);
  }, [message]);

  const clear = useCallback(() => setMessage(null), []);
  return [message, setMessage, clear] as const;
}
