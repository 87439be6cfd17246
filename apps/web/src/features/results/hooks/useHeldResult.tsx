// The scan result held in memory between the progress screen and /results (spec §2): a
// reload forgets it on purpose, and /results then goes back home.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ScanResult } from '@sentinelle/contracts';

interface HeldResultState {
  result: ScanResult | null;
  holdResult: (result: ScanResult | null) => void;
}

const HeldResultContext = createContext<HeldResultState | null>(null);

export function HeldResultProvider({
  children,
  initial = null,
}: {
  children: ReactNode;
  initial?: ScanResult | null;
}) {
  const [result, holdResult] = useState<ScanResult | null>(initial);
  const value = useMemo(() => ({ result, holdResult }), [result]);
  return <HeldResultContext.Provider value={value}>{children}</HeldResultContext.Provider>;
}

export function useHeldResult(): HeldResultState {
  const state = useContext(HeldResultContext);
  if (!state) throw new Error('useHeldResult needs a HeldResultProvider');
  return state;
}
