// Public interface of the scanner: bytes (or a path) in, a ScanResult out. A pure library:
// no HTTP, no database, never executes what it reads.
//
// This is the first engine of the walking skeleton: it reads the ZIP and recognises an HTTP
// body or a net message reaching RunString/CompileString by a textual look. The full
// pipeline (archive → parser → analysis → rules → score → report) replaces the inside and
// keeps this interface.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import yauzl from 'yauzl';
import type { Language, ScanResult, ScanType, Threat } from '@sentinelle/contracts';
import { UnusableArchiveError } from './archive/types.js';

export { UnusableArchiveError } from './archive/types.js';

export interface ScanOptions {
  scanId?: string;
  filename?: string;
  language?: Language;
  scanType?: ScanType;
  /** Checked between files; when it answers true the scan stops with a ScanCancelledError. */
  isCancelled?: () => boolean;
}

export class ScanCancelledError extends Error {
  constructor() {
    super('scan cancelled');
    this.name = 'ScanCancelledError';
  }
}

export const ENGINE_VERSION = '0.1.0';

async function luaFilesOf(bytes: Uint8Array): Promise<{ files: Map<string, string>; count: number }> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true, validateEntrySizes: true }, (err, z) =>
      err || !z ? reject(new UnusableArchiveError('not_zip', err?.message ?? 'not a zip')) : resolve(z),
    ),
  );
  const files = new Map<string, string>();
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (e: Error) => reject(new UnusableArchiveError('corrupt', e.message)));
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      count++;
      if (!entry.fileName.toLowerCase().endsWith('.lua')) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(new UnusableArchiveError('corrupt', err?.message ?? 'unreadable'));
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', (e: Error) => reject(new UnusableArchiveError('corrupt', e.message)));
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks).toString('latin1'));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return { files, count };
}

const SINK = /\b(RunString|RunStringEx|CompileString|loadstring)\s*\(/;
const NET_SOURCE = /net\.Read(String|Data)\s*\(/;
const HTTP_SOURCE = /\bhttp\.(Fetch|Post)\s*\(|\bHTTP\s*\(/;

function stagerThreats(path: string, text: string, language: Language): Threat[] {
  const lines = text.split(/\r?\n/);
  const threats: Threat[] = [];
  const httpSeen = HTTP_SOURCE.test(text);
  lines.forEach((line, i) => {
    if (!SINK.test(line)) return;
    const fromNet = NET_SOURCE.test(line);
    if (!fromNet && !httpSeen) return;
    const en = {
      title: fromNet ? 'Network message executed as code' : 'Remote code downloaded and executed',
      description: fromNet
        ? 'A string sent by a client over the network reaches a code-execution function.'
        : 'Code fetched over HTTP reaches a code-execution function: whoever controls the server can run anything.',
      recommendation: 'Do not install this addon; remove it and check your server for other changes.',
    };
    const fr = {
      title: fromNet ? 'Message réseau exécuté comme du code' : 'Code distant téléchargé puis exécuté',
      description: fromNet
        ? "Une chaîne envoyée par un client sur le réseau atteint une fonction d'exécution de code."
        : "Du code récupéré en HTTP atteint une fonction d'exécution de code : celui qui contrôle le serveur distant peut tout faire.",
      recommendation: "N'installez pas cet addon ; supprimez-le et vérifiez votre serveur.",
    };
    const text = language === 'fr' ? fr : en;
    threats.push({
      pattern: line.trim().slice(0, 120),
      pattern_key: 'runstring',
      ...text,
      localized: { en, fr },
      category: 'code_execution',
      severity: 'critical',
      confidence: 0.8,
      verdict_class: 'backdoor',
      techniques: [fromNet ? 'GB-002' : 'GB-001'],
      code_snippet: line.trim(),
      chain: [],
      locations: [{ file_path: path, line_number: i + 1, context: line.trim() }],
    });
  });
  return threats;
}

export async function scanArchive(input: Uint8Array | string, options: ScanOptions = {}): Promise<ScanResult> {
  const started = performance.now();
  const bytes = typeof input === 'string' ? await readFile(input) : input;
  const language = options.language ?? 'en';
  const { files, count } = await luaFilesOf(bytes);
  const threats: Threat[] = [];
  let lines = 0;
  for (const [path, text] of files) {
    if (options.isCancelled?.()) throw new ScanCancelledError();
    lines += text.split('\n').length;
    threats.push(...stagerThreats(path, text, language));
  }
  const score = threats.length > 0 ? 10 : 100;
  return {
    scan_id: options.scanId ?? createHash('sha256').update(bytes).digest('hex').slice(0, 16),
    filename: options.filename ?? 'archive.zip',
    score,
    verdict: threats.length > 0 ? 'malicious' : 'clean',
    threats,
    file_count: count,
    lua_file_count: files.size,
    total_lines_scanned: lines,
    scan_time_seconds: (performance.now() - started) / 1000,
    scan_type: options.scanType ?? 'standard',
    recommendations: [],
    engine_version: ENGINE_VERSION,
    rules_version: ENGINE_VERSION,
    archive_sha256: createHash('sha256').update(bytes).digest('hex'),
    files: [...files.keys()].map((path) => ({ path, kind: 'lua', realm: null, lines: 0, parse: 'skipped' })),
    limits_reached: [],
  };
}
