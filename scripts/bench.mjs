// `npm run bench -- <folder>`: scans every addon (sub-folder, .zip or .gma) of a folder with a
// worker_threads pool (a cold pass, a round where every worker scans every addon, five warm-up
// passes, then the median of three timed passes) and reports Lua MB/s, files/s and peak RSS,
// next to ripgrep searching the same Lua files for the sink names.
// `npm run bench -- --parse <folder>` parses every Lua file of the same addons in full.
// `npm run bench -- --asset-archive [MiB]` builds a ~1 GiB archive made mostly of assets in a
// temp dir and reports the time and peak RSS of scanning it.
// Needs the built scanner (npm run build).
import { spawnSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scannerEntry = join(root, 'packages', 'scanner', 'dist', 'index.js');
const SINKS =
  'RunString|RunStringEx|CompileString|CompileFile|loadstring|http\\.Fetch|http\\.Post|BroadcastLua|SendLua|SetUserGroup|game\\.ConsoleCommand|RunConsoleCommand';
const MiB = 1024 * 1024;

// ---- worker: scans the paths it is sent, one at a time -------------------------------------
if (!isMainThread && workerData?.role === 'scan') {
  const { scanArchive } = await import(pathToFileURL(scannerEntry).href);
  const { PerformanceObserver } = await import('node:perf_hooks');
  // Garbage-collection pauses of this worker, handed over with each result. Entries are
  // delivered a little after the pause, so one addon's share is approximate and a pause at
  // the very end of a pass may count in the next; over a pass the total is close.
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  const takeGcMs = () => {
    const ms = gcMs;
    gcMs = 0;
    return ms;
  };
  parentPort.postMessage({ ready: true });
  parentPort.on('message', async (path) => {
    const started = performance.now();
    try {
      const r = await scanArchive(path, { filename: basename(path) });
      parentPort.postMessage({
        path,
        ms: performance.now() - started,
        gcMs: takeGcMs(),
        score: r.score,
        verdict: r.verdict,
        threats: r.threats.length,
        files: r.file_count,
        luaFiles: r.lua_file_count,
        lines: r.total_lines_scanned,
        limits: r.limits_reached,
      });
    } catch (error) {
      parentPort.postMessage({
        path,
        ms: performance.now() - started,
        gcMs: takeGcMs(),
        error: `${error?.name}: ${error?.message}`,
      });
    }
  });
}

// ---- helpers ---------------------------------------------------------------------------------

async function luaBytesOfFolder(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.toLowerCase().endsWith('.lua')) {
      bytes += (await stat(join(entry.parentPath ?? entry.path, entry.name))).size;
      files++;
    }
  }
  return { bytes, files };
}

async function luaBytesOfZip(path) {
  const { default: yauzl } = await import('yauzl');
  return new Promise((resolve) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return resolve({ bytes: 0, files: 0 });
      let bytes = 0;
      let files = 0;
      zip.on('entry', (e) => {
        if (e.fileName.toLowerCase().endsWith('.lua')) {
          bytes += e.uncompressedSize;
          files++;
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve({ bytes, files }));
      zip.on('error', () => resolve({ bytes, files }));
      zip.readEntry();
    });
  });
}

function peakRssMiB() {
  // maxRSS is in KiB and covers the worker threads, which live in this process.
  return process.resourceUsage().maxRSS / 1024;
}

function pad(text, width) {
  const s = String(text);
  return s.length >= width ? s : s + ' '.repeat(width - s.length);
}

/**
 * A pool of scan workers kept across passes, as the server keeps its own: each worker takes
 * the next path when it is done with one.
 */
class ScanPool {
  /** `resourceLimits`: the scanner's SCAN_THREAD_RESOURCE_LIMITS, as the server's pool uses. */
  constructor(size, resourceLimits) {
    this.workers = [];
    this.ready = Promise.all(
      Array.from({ length: size }, () => {
        const worker = new Worker(fileURLToPath(import.meta.url), {
          workerData: { role: 'scan' },
          resourceLimits,
        });
        this.workers.push(worker);
        worker.on('error', (error) => {
          console.error(`worker crashed: ${error.stack ?? error}`);
          process.exitCode = 1;
        });
        return new Promise((resolve) => worker.once('message', resolve));
      }),
    );
  }

  /**
   * Scans every path once on `workers` (all of them by default), each taking the next path when
   * it is done with one; the paths come largest first so no worker is left with a big one at
   * the end.
   */
  scan(paths, workers = this.workers) {
    return new Promise((resolve) => {
      const results = [];
      const queue = [...paths];
      let running = 0;
      const next = (worker) => {
        const path = queue.shift();
        if (path === undefined) {
          worker.removeAllListeners('message');
          if (--running === 0) resolve(results);
          return;
        }
        worker.postMessage(path);
      };
      for (const worker of workers.slice(0, Math.max(1, Math.min(workers.length, paths.length)))) {
        running++;
        worker.on('message', (msg) => {
          results.push(msg);
          next(worker);
        });
        next(worker);
      }
    });
  }

  /**
   * Every worker scans every path once, each from its own queue (the n-th worker starting
   * n/size of the way down the list, so that they do not read the same files at once).
   */
  scanEach(paths) {
    return Promise.all(
      this.workers.map((worker, w) => {
        const shift = Math.floor((w * paths.length) / this.workers.length);
        return this.scan([...paths.slice(shift), ...paths.slice(0, shift)], [worker]);
      }),
    );
  }

  close() {
    for (const worker of this.workers) void worker.terminate();
  }
}

/**
 * Times ripgrep searching the folders' Lua files for the sink names, once per call. The first
 * call is a warm-up (both tools then read from a warm page cache) and is not counted.
 */
class RipgrepTimer {
  constructor(folders) {
    this.args = ['-c', '--no-messages', '-g', '*.lua', '-g', '*.LUA', '-e', SINKS, ...folders];
    this.times = [];
    this.enabled = folders.length > 0;
    this.error = undefined;
    this.matchingFiles = 0;
    this.warm = false;
  }

  /** Runs rg once (warming up first), recording its time or the error that stopped it. */
  run() {
    if (!this.enabled || this.error) return;
    if (!this.warm) {
      this.warm = true;
      spawnSync('rg', this.args, { encoding: 'utf8', maxBuffer: 256 * MiB });
    }
    const started = performance.now();
    const r = spawnSync('rg', this.args, { encoding: 'utf8', maxBuffer: 256 * MiB });
    const ms = performance.now() - started;
    if (r.error) {
      this.error = r.error.message;
      return;
    }
    this.times.push(ms);
    this.matchingFiles = r.stdout.split('\n').filter(Boolean).length;
  }

  get medianMs() {
    const sorted = [...this.times].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
  }
}

// ---- corpus bench ------------------------------------------------------------------------------

async function benchFolder(folder) {
  const items = [];
  for (const entry of (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(folder, entry.name);
    const ext = extname(entry.name).toLowerCase();
    if (entry.isDirectory())
      items.push({ path, kind: 'folder', ...(await luaBytesOfFolder(path)) });
    else if (ext === '.zip') items.push({ path, kind: 'zip', ...(await luaBytesOfZip(path)) });
    else if (ext === '.gma') items.push({ path, kind: 'gma', bytes: 0, files: 0 });
  }
  if (items.length === 0) {
    console.error(`no addon folder, .zip or .gma found in ${folder}`);
    process.exit(2);
  }
  const size = availableParallelism();
  // One worker per core, as the server runs its pool; `npm run bench` and `npm start` pass
  // --single-threaded-gc so that V8's garbage-collector threads do not compete with them, and
  // --no-allocation-site-pretenuring (docs/decisions.md) so that the collector's cost does not
  // depend on decisions V8 took during the first scans.
  const flags = process.execArgv.filter((a) => a.startsWith('--')).join(' ') || 'none';
  console.log(
    `Scanning ${items.length} addons from ${folder} with ${size} workers (node flags: ${flags})…`,
  );
  const { SCAN_THREAD_RESOURCE_LIMITS } = await import(pathToFileURL(scannerEntry).href);
  const pool = new ScanPool(size, SCAN_THREAD_RESOURCE_LIMITS);
  await pool.ready;
  // Largest first: the pool then ends with small addons on both workers.
  const order = [...items].sort((a, b) => b.bytes - a.bytes).map((i) => i.path);
  // A running server's workers are warm: V8 has compiled the scanner's hot code and sized
  // its heaps, which takes a few scans of the corpus (the pass time keeps falling over the
  // first four or five). The first (cold) pass and five warm-up passes are printed, then the
  // median of three timed passes is the figure reported.
  // Each pass prints its time as it ends (the per-addon times are in the table below).
  const pass = async (label) => {
    const t = performance.now();
    const passResults = await pool.scan(order);
    const ms = performance.now() - t;
    process.stderr.write(`  ${label} pass: ${(ms / 1000).toFixed(2)} s\n`);
    return { ms, results: passResults };
  };
  const coldMs = (await pass('cold')).ms;
  // A server's threads have each met every kind of addon. In a shared queue, largest first,
  // the same worker always takes the largest addon and the other the second, so a worker can
  // meet an addon for the first time in a timed pass, and V8 then throws away the code it
  // compiled without that addon's object shapes and branches and compiles it again, on the
  // other core (docs/decisions.md, session 15; docs/performance.md has the traces).
  const eachStarted = performance.now();
  await pool.scanEach(order);
  const eachMs = performance.now() - eachStarted;
  process.stderr.write(`  every worker over every addon: ${(eachMs / 1000).toFixed(2)} s\n`);
  const warmups = [];
  for (let i = 0; i < 5; i++) warmups.push((await pass('warm-up')).ms);
  // ripgrep is timed right after each timed pass, so that both figures of the ratio come from
  // the same stretch of time on a machine whose speed drifts (shared virtual cores).
  const rg = new RipgrepTimer(items.filter((i) => i.kind === 'folder').map((i) => i.path));
  const timed = [];
  for (let i = 0; i < 3; i++) {
    timed.push(await pass('timed'));
    rg.run();
  }
  const median = [...timed].sort((a, b) => a.ms - b.ms)[1];
  const results = median.results;
  const wallMs = median.ms;
  pool.close();
  const byPath = new Map(results.map((r) => [r.path, r]));

  console.log('');
  console.log(
    `${pad('addon', 22)}${pad('lua files', 11)}${pad('lua MB', 9)}${pad('time s', 9)}${pad('score', 7)}${pad('verdict', 12)}threats`,
  );
  let luaBytes = 0;
  let luaFiles = 0;
  let files = 0;
  let failures = 0;
  for (const item of items) {
    const r = byPath.get(item.path);
    luaBytes += item.bytes;
    luaFiles += r?.luaFiles ?? item.files;
    files += r?.files ?? 0;
    if (!r || r.error) {
      failures++;
      console.log(
        `${pad(basename(item.path), 22)}${pad(item.files, 11)}${pad((item.bytes / MiB).toFixed(2), 9)}${r ? `FAILED ${r.error}` : 'no result'}`,
      );
      continue;
    }
    const limits = r.limits.length ? `  (limits: ${r.limits.join(', ')})` : '';
    console.log(
      `${pad(basename(item.path), 22)}${pad(r.luaFiles, 11)}${pad((item.bytes / MiB).toFixed(2), 9)}${pad((r.ms / 1000).toFixed(2), 9)}${pad(r.score, 7)}${pad(r.verdict, 12)}${r.threats}${limits}`,
    );
  }
  const seconds = wallMs / 1000;
  console.log('');
  console.log(
    `Sentinelle: ${(luaBytes / MiB).toFixed(1)} MB of Lua in ${luaFiles} Lua files (${files} files) in ${seconds.toFixed(2)} s`,
  );
  console.log(
    `  ${(luaBytes / MiB / seconds).toFixed(2)} MB of Lua/s, ${(luaFiles / seconds).toFixed(1)} Lua files/s, ${(files / seconds).toFixed(1)} files/s`,
  );
  console.log(
    `  median of 3 warm passes (${timed.map((t) => (t.ms / 1000).toFixed(2)).join(' s, ')} s), after a round where each of the ${size} workers scanned every addon (${(eachMs / 1000).toFixed(2)} s) and ${warmups.length} warm-up passes (${warmups.map((ms) => (ms / 1000).toFixed(2)).join(' s, ')} s)`,
  );
  console.log(
    `  first (cold) pass: ${(coldMs / 1000).toFixed(2)} s, ${(luaBytes / MiB / (coldMs / 1000)).toFixed(2)} MB of Lua/s`,
  );
  // What the workers spent: with both busy to the end, the sum is about size × the wall time;
  // less means a worker waited (an addon too large to share, or the pool's overhead).
  const scanMs = results.reduce((sum, r) => sum + r.ms, 0);
  const gcMs = results.reduce((sum, r) => sum + (r.gcMs ?? 0), 0);
  console.log(
    `  scanning time summed over the workers: ${(scanMs / 1000).toFixed(2)} s (${(scanMs / wallMs).toFixed(2)}x the pass's wall time), of which garbage-collection pauses ${(gcMs / 1000).toFixed(2)} s (${((100 * gcMs) / scanMs).toFixed(0)} %)`,
  );
  console.log(`  peak RSS ${peakRssMiB().toFixed(0)} MiB (whole process, ${size} workers)`);
  if (failures > 0) console.log(`  ${failures} addon(s) failed to scan`);
  if (!rg.enabled) console.log('ripgrep: no addon folder to compare (rg cannot look inside zips)');
  else if (rg.error)
    console.log(
      `ripgrep: not run (${rg.error}); install it (apt-get install ripgrep) for the comparison`,
    );
  else {
    console.log(
      `ripgrep (rg -c sinks over the same folders' .lua): ${(rg.medianMs / 1000).toFixed(3)} s, median of ${rg.times.length} runs, one after each timed pass (${rg.times.map((ms) => (ms / 1000).toFixed(3)).join(' s, ')} s); ${rg.matchingFiles} files with a sink name`,
    );
    console.log(`  ratio Sentinelle/rg: ${(wallMs / rg.medianMs).toFixed(1)}x slower (medians)`);
  }
  if (failures > 0) process.exitCode = 1;
}

// ---- parse check ---------------------------------------------------------------------------------

/**
 * Parses every Lua file of every addon in full (no skim, no lazy bodies) and reports the ones
 * that do not parse: the scan itself builds trees only where the analysis needs them, so this
 * is how the parser is checked on a whole corpus.
 */
async function parseCheck(folder) {
  const { readArchive } = await import(
    pathToFileURL(join(root, 'packages', 'scanner', 'dist', 'archive', 'index.js')).href
  );
  const { parseLua } = await import(
    pathToFileURL(join(root, 'packages', 'scanner', 'dist', 'lua', 'index.js')).href
  );
  const E2 = /\be2function\b|__e2setcost/;
  let files = 0;
  let bytes = 0;
  let failing = 0;
  let dialect = 0;
  let sniffedNotLua = 0;
  const started = performance.now();
  for (const entry of (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(folder, entry.name);
    if (!entry.isDirectory() && !/\.(zip|gma)$/i.test(entry.name)) continue;
    const contents = await readArchive(path);
    let addonFiles = 0;
    let sniffed = 0;
    const broken = [];
    for (const e of contents.entries) {
      if (!e.bytes) continue;
      // Text entries sniffed as possible Lua (docs, templates) are scanned as Lua but are not
      // Lua files: they are counted apart.
      if (e.kind === 'lua_in_asset') {
        if (parseLua(e.bytes).errors.length > 0) sniffed++;
        continue;
      }
      if (e.kind !== 'lua') continue;
      addonFiles++;
      bytes += e.bytes.length;
      const parsed = parseLua(e.bytes);
      if (parsed.errors.length === 0) continue;
      const text = Buffer.from(e.bytes).toString('latin1');
      if (E2.test(text)) dialect++;
      else broken.push(`${e.path}:${parsed.errors[0].line}: ${parsed.errors[0].message}`);
    }
    files += addonFiles;
    failing += broken.length;
    sniffedNotLua += sniffed;
    console.log(
      `${pad(entry.name, 22)}${pad(addonFiles, 7)} Lua files, ${broken.length} not parsing${sniffed ? ` (${sniffed} other text entries read as possible Lua are not Lua)` : ''}`,
    );
    for (const b of broken.slice(0, 10)) console.log(`    ${b}`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\n${files} Lua files (${(bytes / MiB).toFixed(1)} MB) parsed in full in ${seconds.toFixed(1)} s: ${failing} do not parse, ${dialect} are Wire Expression 2 extension files (another dialect); ${sniffedNotLua} other text entries read as possible Lua do not parse`,
  );
  if (failing > 0) process.exitCode = 1;
}

// ---- ~1 GiB asset archive ------------------------------------------------------------------------

async function writeAssetArchive(path, totalMiB) {
  const { Zip, ZipPassThrough, ZipDeflate, strToU8 } = await import('fflate');
  const out = createWriteStream(path);
  let failed;
  out.on('error', (e) => (failed = e));
  const zip = new Zip();
  let pending = Promise.resolve();
  // Chunks are queued to the file stream with back-pressure, so memory stays at a few MiB.
  zip.ondata = (err, chunk, final) => {
    if (err) failed = err;
    const copy = Buffer.from(chunk);
    pending = pending.then(
      () =>
        new Promise((resolve) => {
          if (out.write(copy)) resolve();
          else out.once('drain', resolve);
        }),
    );
    if (final) pending = pending.then(() => new Promise((resolve) => out.end(resolve)));
  };
  const addFile = async (name, data, deflate) => {
    const file = deflate ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    zip.add(file);
    file.push(data, true);
    await pending;
  };
  await addFile('addon.json', strToU8('{"title":"Big asset pack","type":"model"}'), true);
  for (let i = 0; i < 20; i++) {
    await addFile(
      `lua/autorun/client/cl_assets_${i}.lua`,
      strToU8(
        `-- asset pack ${i}\nhook.Add("InitPostEntity", "assets${i}", function() util.PrecacheModel("models/pack/m${i}.mdl") end)\n`.repeat(
          50,
        ),
      ),
      true,
    );
  }
  const chunk = Buffer.alloc(MiB);
  const entryMiB = 4;
  const entries = Math.floor(totalMiB / entryMiB);
  for (let i = 0; i < entries; i++) {
    // Random bytes do not compress: the archive really is ~totalMiB on disk, like texture packs.
    const file = new ZipPassThrough(`materials/pack/texture_${String(i).padStart(4, '0')}.vtf`);
    zip.add(file);
    for (let part = 0; part < entryMiB; part++) {
      randomFillSync(chunk);
      file.push(new Uint8Array(chunk), part === entryMiB - 1);
      await pending;
    }
    if (failed) throw failed;
  }
  zip.end();
  await pending;
  if (failed) throw failed;
  return (await stat(path)).size;
}

/**
 * Scans one path in a scan worker sized as the server's, and prints JSON: run in a fresh
 * child so that peak RSS is the scan's own.
 */
async function scanOne(path) {
  const { SCAN_THREAD_RESOURCE_LIMITS } = await import(pathToFileURL(scannerEntry).href);
  const pool = new ScanPool(1, SCAN_THREAD_RESOURCE_LIMITS);
  await pool.ready;
  const before = peakRssMiB();
  const [r] = await pool.scan([path]);
  pool.close();
  if (r.error) throw new Error(r.error);
  console.log(
    JSON.stringify({
      seconds: r.ms / 1000,
      peakRssMiB: peakRssMiB(),
      rssBeforeMiB: before,
      score: r.score,
      files: r.files,
      luaFiles: r.luaFiles,
      limits: r.limits,
    }),
  );
}

async function benchAssetArchive(totalMiB) {
  const dir = await mkdtemp(join(tmpdir(), 'sentinelle-bench-'));
  const path = join(dir, 'asset-pack.zip');
  try {
    console.log(`Writing a ${totalMiB} MiB asset archive to ${path}…`);
    const started = performance.now();
    const size = await writeAssetArchive(path, totalMiB);
    console.log(
      `  written ${(size / MiB).toFixed(0)} MiB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const child = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--scan-one', path],
      { encoding: 'utf8' },
    );
    if (child.status !== 0) {
      console.log(`  scan failed: ${child.stderr.trim() || child.stdout.trim()}`);
      process.exitCode = 1;
      return;
    }
    const r = JSON.parse(child.stdout.trim().split('\n').pop());
    console.log(
      `  scanned in ${r.seconds.toFixed(1)} s (${(size / MiB / r.seconds).toFixed(0)} MiB/s): ${r.files} files, ${r.luaFiles} Lua, score ${r.score}${r.limits.length ? `, limits: ${r.limits.join(', ')}` : ''}`,
    );
    console.log(
      `  peak RSS of the scanning process: ${r.peakRssMiB.toFixed(0)} MiB (${r.rssBeforeMiB.toFixed(0)} MiB before the scan)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---- command line ----------------------------------------------------------------------------------

if (isMainThread) {
  const args = process.argv.slice(2);
  if (!existsSync(scannerEntry)) {
    console.error(
      'The scanner is not built: run `npm run build` (or npx tsc -b packages/scanner) first.',
    );
    process.exit(2);
  }
  if (args[0] === '--scan-one' && args[1]) {
    await scanOne(args[1]);
  } else if (args[0] === '--asset-archive') {
    const mib = Number(args[1] ?? 1000);
    if (!Number.isFinite(mib) || mib < 8) {
      console.error('--asset-archive takes a size in MiB (default 1000, at least 8)');
      process.exit(2);
    }
    await benchAssetArchive(mib);
  } else if (args[0] === '--parse' && args[1]) {
    await parseCheck(args[1]);
  } else if (args.length === 1 && !args[0].startsWith('-')) {
    await benchFolder(args[0]);
  } else {
    console.error(
      'Usage: npm run bench -- <folder of addon folders, .zip or .gma>\n       npm run bench -- --parse <same folder>   (parses every Lua file in full)\n       npm run bench -- --asset-archive [MiB, default 1000]',
    );
    process.exit(2);
  }
}
