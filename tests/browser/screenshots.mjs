// Screenshots of the explorer for results/explorer/ (run by scripts/explorer-screenshots.sh):
//   node screenshots.mjs <base url> <out dir> <name> <query> [<name> <query>]...
// Each page is photographed at 1280x800 (the desktop); a name ending in
// `-phone` at 390x844 (a phone). A name containing `-editor` opens the position
// editor first. Whole pages (fullPage). EXPLORER_ASSETS=DIR serves the page's
// files from DIR instead of the binary's embedded copy (as in explorer.test.mjs).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [base, out, ...pairs] = process.argv.slice(2);
if (!base || !out || pairs.length % 2) {
  console.error('usage: node screenshots.mjs <base url> <out dir> (<name> <query>)...');
  process.exit(2);
}
const deadline = setTimeout(() => { console.error('screenshots: timed out'); process.exit(1); }, 300_000);
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huntsolve-chromium-'));
const ctx = await chromium.launchPersistentContext(userDir, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--disable-quic', '--no-first-run'],
  viewport: { width: 1280, height: 800 },
});
if (process.env.EXPLORER_ASSETS) {
  const dir = process.env.EXPLORER_ASSETS;
  const types = { html: 'text/html', js: 'text/javascript', css: 'text/css' };
  await ctx.route((u) => u.href.startsWith(base) && ['/', '/index.html', '/app.js', '/style.css'].includes(u.pathname), (route) => {
    const file = new URL(route.request().url()).pathname.slice(1) || 'index.html';
    return route.fulfill({ body: fs.readFileSync(path.join(dir, file)), contentType: `${types[file.split('.').pop()]}; charset=utf-8` });
  });
}
const page = await ctx.newPage();
let failed = 0;
for (let i = 0; i < pairs.length; i += 2) {
  const [name, query] = [pairs[i], pairs[i + 1]];
  const phone = name.endsWith('-phone');
  await page.setViewportSize(phone ? { width: 390, height: 844 } : { width: 1280, height: 800 });
  await page.goto(`${base}${query}`);
  try {
    await page.waitForSelector('body[data-ready="1"]', { timeout: 120_000 });
    if (name.includes('-editor')) {
      await page.click('#editButton');
      await page.waitForSelector('#editor:not([hidden])');
    }
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
