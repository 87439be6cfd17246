// The two score scales of spec §4: one for the results screen, one for recommendation sets,
// my-scans and the admin scan history.

export type ResultBand = 'safe' | 'attention' | 'dangerous' | 'critical';
export type ListBand = 'safe' | 'warning' | 'critical';

/** Results screen: ≥90 safe, 70–89 attention, 40–69 dangerous, <40 critical. */
export function resultBand(score: number): ResultBand {
  if (score >= 90) return 'safe';
  if (score >= 70) return 'attention';
  if (score >= 40) return 'dangerous';
  return 'critical';
}

/** Recommendations, my-scans, admin history: ≥80 safe, 50–79 warning, <50 critical. */
export function listBand(score: number): ListBand {
  if (score >= 80) return 'safe';
  if (score >= 50) return 'warning';
  return 'critical';
}
