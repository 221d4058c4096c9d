import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const screenshotDir = path.join(root, 'test-output/screenshots');

/** Debian's chromium (`apt-get install chromium`), or CHROMIUM_PATH. Never a downloaded browser. */
export function chromiumPath(): string | null {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // --no-sandbox: CI runs as root, where chromium's sandbox cannot start.
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A full-page screenshot under test-output/screenshots/, for review. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/** The UI is served from packages/web/dist: build it when this tree has not been built yet. */
export async function ensureWebBuilt(): Promise<void> {
  if (fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) return;
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync('npm', ['run', 'build', '--silent', '-w', '@docqa/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('Building the web UI (npm run build -w @docqa/web) failed');
}
