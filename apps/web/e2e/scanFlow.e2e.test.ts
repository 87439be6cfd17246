// The walking skeleton end to end, in a real browser against the built server: Steam sign-in
// through the fake provider, upload of a known-malicious addon, progress screen, results
// with a critical score and the threat, French, and a theme that survives a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  SAMPLES_DIR,
  startBuiltServer,
  TEST_RESULTS_DIR,
  type RunningServer,
} from './builtServer.js';

const STEAM_ID = '76561198000000042';
const SAMPLE = 'mal-01-simplehud-fetch-stager';

/** Zips an addon folder as an author would ship it (the sample's label file left out). */
function zipSample(name: string): string {
  const folder = join(SAMPLES_DIR, 'malicious', name);
  const entries: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry !== 'expect.json')
        entries[`${name}/${relative(folder, path).split('\\').join('/')}`] = readFileSync(path);
    }
  };
  walk(folder);
  const zipPath = join(workDir, `${name}.zip`);
  writeFileSync(zipPath, zipSync(entries));
  return zipPath;
}

let server: RunningServer;
let browser: Browser;
let page: Page;
let workDir: string;
const browserErrors: string[] = [];

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'sentinelle-e2e-zip-'));
  mkdirSync(TEST_RESULTS_DIR, { recursive: true });
  server = await startBuiltServer(STEAM_ID);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
  });
  page = await context.newPage();
  page.on('pageerror', (error) => browserErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') browserErrors.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const byTestId = (id: string) => `[data-testid="${id}"]`;

describe('scan flow in Chromium', () => {
  it('signs in, scans a malicious addon, reads the result in French and keeps the theme', async () => {
    try {
      const base = server.baseUrl;
      await page.goto(`${base}/`);
      expect(await page.textContent(byTestId('home-title'))).toContain("Garry's Mod");
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
        true,
      );

      // Sign-in: login URL from the API → fake Steam → verified return → /auth/success → home.
      await page.click(byTestId('login-button'));
      await page.waitForSelector(byTestId('auth-success'), { timeout: 20_000 });
      expect(await page.textContent(byTestId('auth-success-countdown'))).toMatch(
        /Back to the home page in \d seconds?/,
      );
      await page.screenshot({ path: join(TEST_RESULTS_DIR, 'e2e-auth-success-dark-en.png') });
      await page.waitForURL(`${base}/`, { timeout: 10_000 });
      await page.waitForSelector(byTestId('user-menu-button'));
      expect(await page.evaluate(() => localStorage.getItem('steamToken'))).toBeTruthy();

      // Upload.
      const zipPath = zipSample(SAMPLE);
      await page.setInputFiles(byTestId('file-input'), zipPath);
      expect(await page.textContent(byTestId('selected-file-name'))).toBe(`${SAMPLE}.zip`);
      expect(await page.textContent(byTestId('selected-file-size'))).toMatch(/^\d+\.\d\d MB$/);
      await page.click(byTestId('standard-analysis-button'));
      await page.waitForSelector(byTestId('scan-progress'), { timeout: 10_000 });
      expect(await page.textContent(byTestId('progress-analysis-type'))).toBe('Standard analysis');
      await page.screenshot({ path: join(TEST_RESULTS_DIR, 'e2e-progress-dark-en.png') });

      // Results.
      // The results page, or the error toast of a refused or failed scan (whose text we report).
      const outcome = await page.waitForSelector(
        `${byTestId('results-page')}, .Toastify__toast--error`,
        { timeout: 60_000 },
      );
      if ((await outcome.getAttribute('data-testid')) !== 'results-page') {
        throw new Error(`The scan did not reach the results: "${await outcome.textContent()}"`);
      }
      expect(page.url()).toBe(`${base}/results`);
      await page.waitForSelector(byTestId('threat-card'));
      const score = Number(await page.textContent(byTestId('score-value')));
      expect(score).toBeLessThan(40);
      expect(await page.getAttribute(byTestId('score-badge'), 'data-band')).toBe('critical');
      expect(await page.textContent(byTestId('results-filename'))).toBe(`${SAMPLE}.zip`);
      expect(
        await page.locator(`${byTestId('threat-card')}[data-severity="critical"]`).count(),
      ).toBeGreaterThan(0);
      const threatsText = await page.textContent(byTestId('threat-list'));
      expect(threatsText).toContain('sv_simplehud.lua');
      expect(
        await page.locator(`${byTestId('threat-card')} mark[data-dangerous]`).count(),
      ).toBeGreaterThan(0);
      await page.screenshot({
        path: join(TEST_RESULTS_DIR, 'e2e-results-dark-en.png'),
        fullPage: true,
      });

      // French.
      const englishTitle = await page.textContent(byTestId('threat-title'));
      await page.click(byTestId('language-fr'));
      expect(await page.textContent(byTestId('results-back'))).toBe('Nouvelle analyse');
      expect(await page.textContent(byTestId('score-band'))).toBe('Critique');
      expect(await page.textContent('#threats-title')).toMatch(/menaces?$/);
      expect(await page.textContent(byTestId('threat-title'))).not.toBe(englishTitle);
      expect(await page.getAttribute('html', 'lang')).toBe('fr');

      // Light theme, kept across a reload (the result itself is only held in memory).
      await page.click(byTestId('theme-toggle'));
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
        false,
      );
      await page.screenshot({
        path: join(TEST_RESULTS_DIR, 'e2e-results-light-fr.png'),
        fullPage: true,
      });
      await page.reload();
      await page.waitForSelector(byTestId('home-title'));
      expect(await page.evaluate(() => localStorage.getItem('darkMode'))).toBe('false');
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
        false,
      );
      expect(await page.textContent(byTestId('home-title'))).toContain('Analysez');
      await page.click(byTestId('user-menu-button'));
      expect(await page.textContent(byTestId('user-rank'))).toContain('Membre');
      await page.screenshot({
        path: join(TEST_RESULTS_DIR, 'e2e-home-light-fr.png'),
        fullPage: true,
      });

      expect(browserErrors).toEqual([]);
    } catch (error) {
      await page
        ?.screenshot({ path: join(TEST_RESULTS_DIR, 'e2e-failure.png'), fullPage: true })
        .catch(() => {});
      throw new Error(`${(error as Error).message}\n--- server output ---\n${server.output()}`, {
        cause: error,
      });
    }
  });
});
