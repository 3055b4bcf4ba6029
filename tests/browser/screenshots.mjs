// Screenshots of the explorer for results/explorer/ (run by scripts/explorer-screenshots.sh):
//   node screenshots.mjs <base url> <out dir> <name> <query> [<name> <query>]...
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [base, out, ...pairs] = process.argv.slice(2);
if (!base || !out || pairs.length % 2) {
  console.error('usage: node screenshots.mjs <base url> <out dir> (<name> <query>)...');
  process.exit(2);
}
const deadline = setTimeout(() => { console.error('screenshots: timed out'); process.exit(1); }, 180_000);
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huntsolve-chromium-'));
const ctx = await chromium.launchPersistentContext(userDir, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--disable-quic', '--no-first-run'],
  viewport: { width: 1280, height: 860 },
});
const page = await ctx.newPage();
let failed = 0;
for (let i = 0; i < pairs.length; i += 2) {
  const [name, query] = [pairs[i], pairs[i + 1]];
  await page.goto(`${base}${query}`);
  try {
    await page.waitForSelector('body[data-ready="1"]', { timeout: 60_000 });
    await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
    console.log(`${name}.png: ${base}${query}`);
  } catch (e) {
    failed += 1;
    console.log(`${name}: ${e.message}`);
  }
}
await ctx.close();
fs.rmSync(userDir, { recursive: true, force: true });
clearTimeout(deadline);
process.exit(failed ? 1 : 0);
