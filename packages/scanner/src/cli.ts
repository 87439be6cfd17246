// The `sentinelle` command: scans an addon archive or folder from a terminal or a CI job and
// prints the result as JSON, a text report or SARIF; the exit code tells CI what was found.
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import {
  LANGUAGES,
  SEVERITIES,
  SEVERITY_RANK,
  type Language,
  type ScanResult,
  type Severity,
} from '@sentinelle/contracts';
import {
  ENGINE_VERSION,
  renderSarif,
  renderTextReport,
  scanArchive,
  UnusableArchiveError,
  type ScanPhase,
} from './index.js';

export const EXIT_OK = 0;
/** A threat reached the --fail-on severity. */
export const EXIT_FINDINGS = 1;
/** The input could not be scanned (unusable archive, missing path, bad arguments). */
export const EXIT_UNUSABLE = 2;

/** Inputs above this size get progress lines on stderr. */
export const PROGRESS_THRESHOLD_BYTES = 10 * 1024 * 1024;

const FORMATS = ['json', 'text', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

export const USAGE = `Usage: sentinelle scan <archive.zip|addon.gma|folder> [options]

Scans a Garry's Mod addon for backdoors without running it.

Options:
  --format json|text|sarif   output on stdout (default json: the scan result)
  --lang en|fr               language of texts and the text report (default en)
  --fail-on <severity>       exit 1 when a threat is at least critical|high|medium|low
  -h, --help                 show this help
  -v, --version              show the engine version

Exit codes: 0 done, 1 a threat reached --fail-on, 2 the input could not be scanned,
3 internal error.
`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

interface ScanCommand {
  path: string;
  format: Format;
  lang: Language;
  failOn?: Severity;
}

class UsageError extends Error {}

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T {
  if (value !== undefined && (allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(
    `${flag} expects one of ${allowed.join(', ')}${value === undefined ? '' : `, not "${value}"`}`,
  );
}

function parseScan(args: string[]): ScanCommand {
  let path: string | undefined;
  let format: Format = 'json';
  let lang: Language = 'en';
  let failOn: Severity | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => inline ?? args[++i];
    if (flag === '--format') format = oneOf(value(), FORMATS, '--format');
    else if (flag === '--lang') lang = oneOf(value(), LANGUAGES, '--lang');
    else if (flag === '--fail-on') failOn = oneOf(value(), SEVERITIES, '--fail-on');
    else if (flag.startsWith('-') && flag !== '-') throw new UsageError(`unknown option ${flag}`);
    else if (path === undefined) path = arg;
    else
      throw new UsageError(`only one input can be scanned at a time (got "${path}" and "${arg}")`);
  }
  if (path === undefined) throw new UsageError('scan needs the path of a .zip, .gma or folder');
  return { path, format, lang, failOn };
}

function render(result: ScanResult, command: ScanCommand): string {
  if (command.format === 'text') return renderTextReport(result, command.lang);
  if (command.format === 'sarif') return `${JSON.stringify(renderSarif(result), null, 2)}\n`;
  return `${JSON.stringify(result, null, 2)}\n`;
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** Runs the command line; returns the exit code instead of exiting, so tests can call it. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    (command === undefined ? io.stderr : io.stdout)(USAGE);
    return command === undefined ? EXIT_UNUSABLE : EXIT_OK;
  }
  if (command === '-v' || command === '--version') {
    io.stdout(`sentinelle ${ENGINE_VERSION}\n`);
    return EXIT_OK;
  }
  if (command !== 'scan') {
    io.stderr(`sentinelle: unknown command "${command}"\n\n${USAGE}`);
    return EXIT_UNUSABLE;
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }

  let scan: ScanCommand;
  try {
    scan = parseScan(rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`sentinelle: ${err.message}\n\n${USAGE}`);
    return EXIT_UNUSABLE;
  }

  const path = resolve(scan.path);
  const info = await stat(path).catch(() => undefined);
  if (!info || !(info.isFile() || info.isDirectory())) {
    io.stderr(`sentinelle: cannot read "${scan.path}": no such file or folder\n`);
    return EXIT_UNUSABLE;
  }
  const started = performance.now();
  const large = info.isFile() && info.size > PROGRESS_THRESHOLD_BYTES;
  const onPhase = large
    ? (phase: ScanPhase) =>
        io.stderr(
          `sentinelle: ${phase} ${basename(path)} (${megabytes(info.size)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
        )
    : undefined;

  let result: ScanResult;
  try {
    result = await scanArchive(path, { filename: basename(path), language: scan.lang, onPhase });
  } catch (err) {
    if (
      err instanceof UnusableArchiveError ||
      (err instanceof Error && err.name === 'UnusableArchiveError')
    ) {
      io.stderr(`sentinelle: "${scan.path}" cannot be scanned: ${err.message}\n`);
      return EXIT_UNUSABLE;
    }
    if (
      err instanceof Error &&
      ['EISDIR', 'EACCES', 'ENOENT', 'EPERM'].includes((err as NodeJS.ErrnoException).code ?? '')
    ) {
      io.stderr(`sentinelle: cannot read "${scan.path}": ${err.message}\n`);
      return EXIT_UNUSABLE;
    }
    throw err;
  }
  if (large)
    io.stderr(
      `sentinelle: done in ${result.scan_time_seconds.toFixed(1)} s, score ${result.score}/100\n`,
    );

  io.stdout(render(result, scan));
  if (scan.failOn) {
    const threshold = SEVERITY_RANK[scan.failOn];
    if (result.threats.some((t) => SEVERITY_RANK[t.severity] >= threshold)) return EXIT_FINDINGS;
  }
  return EXIT_OK;
}
