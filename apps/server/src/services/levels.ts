// Member levels from experience points. Going from level L to L+1 takes 10·L XP (2 XP per
// scan: 5 scans to reach level 2, then 10 more for level 3…), so early levels come quickly.
export interface LevelInfo {
  level: number;
  progressPercent: number;
}

export function levelOf(xp: number): LevelInfo {
  let level = 1;
  let remaining = Math.max(0, Math.floor(xp));
  while (remaining >= 10 * level) {
    remaining -= 10 * level;
    level++;
  }
  return { level, progressPercent: Math.floor((remaining / (10 * level)) * 100) };
}
