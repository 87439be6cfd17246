// Hashes of whole files known to be malicious (threat catalogue §7.2 point 8), for matching by
// content whatever the file is called.

/**
 * SHA-256 (lower-case hex) of the exact file → "family: what the file is". Deliberately empty
 * in this version: the public write-ups quote code and names but not file hashes, and no real
 * sample may be downloaded or kept here, so any hash would be invented. Add entries only from
 * a verified sample, one per line, e.g.
 * `['9f86d0…', 'KVacDoor: stage-1 stager (lua/autorun/server/…)']`.
 */
export const MALICIOUS_FILE_HASHES: ReadonlyArray<readonly [sha256: string, label: string]> = [];
