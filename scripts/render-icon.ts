// Renders the marketplace icon media/icon.png (256×256; the manifest's "icon" must be a PNG) from
// media/icon.svg (the activity bar glyph), white on the extension's blue, with Debian's Chromium.
// Run: npx tsx scripts/render-icon.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureTools, launchChromium, REPO_ROOT } from '../test/runners/code-server';

async function main(): Promise<void> {
  const svg = fs.readFileSync(path.join(REPO_ROOT, 'media', 'icon.svg'), 'utf8').replace(/width="24" height="24"/, 'width="170" height="170"');
  const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:256px;height:256px;border-radius:48px;background:linear-gradient(135deg,#1f6feb,#0b3d91);display:flex;align-items:center;justify-content:center;color:#fff">${svg}</div>
</body></html>`;
  const browser = await launchChromium(ensureTools());
  try {
    const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
    await page.setContent(html);
    await page.screenshot({ path: path.join(REPO_ROOT, 'media', 'icon.png'), omitBackground: true });
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
