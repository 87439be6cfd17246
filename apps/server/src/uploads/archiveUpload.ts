// Receives the multipart upload of POST /api/scan: streams the `file` part to disk while
// counting its bytes and checking the ZIP signature, reads the `deep_scan` and `language`
// fields, and leaves nothing on disk when the upload is refused.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { deepScanFieldSchema, languageSchema, type Language } from '@sentinelle/contracts';
import { ApiProblem } from '../errors/apiProblem.js';

/** Local file header, empty archive, and spanned archive: every way a ZIP file can start. */
const ZIP_SIGNATURES = ['504b0304', '504b0506', '504b0708'];
const MIB = 1024 * 1024;

export interface ReceivedArchive {
  filename: string;
  size: number;
  path: string;
  deepScan: boolean;
  language: Language | null;
}

export function fileTooLarge(maxBytes: number, actualBytes: number): ApiProblem {
  return new ApiProblem('file_too_large', 413, {
    details: { maxSize: Math.floor(maxBytes / MIB), fileSize: (actualBytes / MIB).toFixed(1) },
  });
}

/** Counts bytes and inspects the first four; once something is wrong it swallows the rest. */
class ArchiveInspector extends Transform {
  size = 0;
  problem: 'file_not_zip' | 'file_too_large' | null = null;
  private head = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.problem) return callback();
    if (this.size > this.maxBytes) {
      this.problem = 'file_too_large';
      return callback();
    }
    if (this.head.length < 4) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, 4 - this.head.length)]);
      if (this.head.length === 4 && !ZIP_SIGNATURES.includes(this.head.toString('hex'))) {
        this.problem = 'file_not_zip';
        return callback();
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.problem && this.head.length < 4) this.problem = 'file_not_zip';
    callback();
  }
}

/** Drops directory parts and control characters a browser or a script might send. */
export function cleanFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const printable = [...base]
    .filter((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f)
    .join('');
  return printable.trim().slice(0, 255);
}

export async function receiveArchive(
  request: FastifyRequest,
  options: { archivesDir: string; scanId: string; maxUploadBytes: number },
): Promise<ReceivedArchive> {
  const finalPath = `${options.archivesDir}/${options.scanId}.zip`;
  const partPath = `${finalPath}.part`;
  let problem: ApiProblem | null = null;
  let file: { filename: string; size: number } | null = null;
  let deepScan = false;
  let language: Language | null = null;

  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'deep_scan') {
          const parsed = deepScanFieldSchema.safeParse(String(part.value).trim().toLowerCase());
          if (!parsed.success)
            problem ??= new ApiProblem('validation_failed', 400, {
              details: { field: 'deep_scan' },
            });
          else deepScan = parsed.data;
        } else if (part.fieldname === 'language') {
          const parsed = languageSchema.safeParse(part.value);
          if (parsed.success) language = parsed.data;
        }
        continue;
      }
      const filename = cleanFilename(part.filename ?? '');
      if (part.fieldname !== 'file' || file !== null || problem || filename === '') {
        // Not the one file we want (or already refused): read it to the end and forget it.
        part.file.resume();
        await new Promise((resolve) => part.file.once('end', resolve));
        continue;
      }
      if (!filename.toLowerCase().endsWith('.zip')) {
        problem = new ApiProblem('file_not_zip', 400);
        part.file.resume();
        await new Promise((resolve) => part.file.once('end', resolve));
        continue;
      }
      const inspector = new ArchiveInspector(options.maxUploadBytes);
      await pipeline(part.file, inspector, createWriteStream(partPath, { flags: 'wx' }));
      if (inspector.problem === 'file_too_large' || part.file.truncated) {
        problem = fileTooLarge(options.maxUploadBytes, inspector.size);
      } else if (inspector.problem === 'file_not_zip') {
        problem = new ApiProblem('file_not_zip', 400);
      } else {
        file = { filename, size: inspector.size };
      }
    }
  } catch (error) {
    await rm(partPath, { force: true });
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw fileTooLarge(options.maxUploadBytes, options.maxUploadBytes + 1);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new ApiProblem('validation_failed', 400, { details: { reason: 'too many parts' } });
    }
    // A disk problem (ENOSPC…) is ours; anything else is a malformed body from the client.
    if (error instanceof ApiProblem || (typeof code === 'string' && /^E[A-Z]+$/.test(code)))
      throw error;
    throw new ApiProblem('validation_failed', 400, {
      details: { reason: 'malformed multipart body' },
    });
  }

  if (problem || !file || deepScan) await rm(partPath, { force: true });
  if (problem) throw problem;
  if (deepScan) throw new ApiProblem('analysis_unavailable', 400);
  if (!file) throw new ApiProblem('file_required', 400);
  await rename(partPath, finalPath);
  return { ...file, path: finalPath, deepScan, language };
}
