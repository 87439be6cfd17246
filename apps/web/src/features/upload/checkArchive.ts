// Client-side checks of spec §5 before anything is sent: a .zip name and at most 1 GB.
import { MAX_UPLOAD_BYTES } from '@sentinelle/contracts';
import { megabytes } from '../../lib/format.js';

export type ArchiveRefusal =
  { reason: 'not_zip' } | { reason: 'too_large'; maxSizeMb: number; fileSizeMb: string };

export const MAX_UPLOAD_MB = MAX_UPLOAD_BYTES / (1024 * 1024);

export function checkArchive(file: { name: string; size: number }): ArchiveRefusal | null {
  if (!file.name.toLowerCase().endsWith('.zip')) return { reason: 'not_zip' };
  if (file.size > MAX_UPLOAD_BYTES)
    return { reason: 'too_large', maxSizeMb: MAX_UPLOAD_MB, fileSizeMb: megabytes(file.size) };
  return null;
}
