// Renders the site's icons and social image from public/favicon.svg with Debian's Chromium:
// apple-touch-icon.png (180), icon-512.png, favicon.ico (16, 32 and 48 px PNGs in an ICO container)
// and og-image.png (1200×630, for link previews). Run after changing the logo: node scripts/make-icons.mjs
import fs from "node:fs";
import { chromium } from "@playwright/test";

const svg = fs.readFileSync("public/favicon.svg", "utf8");
const product = process.env.PRODUCT_NAME ?? "ForgeKit";
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});

async function render(html, width, height) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.setContent(`<!doctype html><html><body style="margin:0">${html}</body></html>`);
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width, height } });
  await page.close();
  return png;
}
const icon = (size) =>
  render(
    `<div style="width:${size}px;height:${size}px">${svg.replace("<svg ", `<svg width="${size}" height="${size}" `)}</div>`,
    size,
    size,
  );

fs.writeFileSync("public/apple-touch-icon.png", await icon(180));
fs.writeFileSync("public/icon-512.png", await icon(512));

// ICO: a 6-byte header, a 16-byte entry per image, then the images (PNG data is allowed since Vista).
const sizes = [16, 32, 48];
const images = [];
for (const size of sizes) images.push(await icon(size));
const header = Buffer.alloc(6 + 16 * sizes.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(sizes.length, 4);
let offset = header.length;
sizes.forEach((size, i) => {
  const entry = 6 + 16 * i;
  header.writeUInt8(size, entry);
  header.writeUInt8(size, entry + 1);
  header.writeUInt16LE(1, entry + 4);
  header.writeUInt16LE(32, entry + 6);
  header.writeUInt32LE(images[i].length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += images[i].length;
});
fs.writeFileSync("public/favicon.ico", Buffer.concat([header, ...images]));

const og = await render(
  `<div style="width:1200px;height:630px;background:radial-gradient(circle at 20% 20%,#123040,#0b0f14 60%);display:flex;flex-direction:column;justify-content:center;padding:0 96px;box-sizing:border-box;font-family:'DejaVu Sans',sans-serif;color:#e8edf2">
    <div style="display:flex;align-items:center;gap:28px">${svg.replace("<svg ", '<svg width="120" height="120" ')}<span style="font-size:84px;font-weight:700">${product}</span></div>
    <p style="font-size:40px;line-height:1.3;margin:40px 0 0;color:#a8b3bf">Automate repetitive programming work on Windows: load components, define changes, preview, generate.</p>
  </div>`,
  1200,
  630,
);
fs.writeFileSync("public/og-image.png", og);
await browser.close();
console.log("wrote public/apple-touch-icon.png, icon-512.png, favicon.ico, og-image.png");
