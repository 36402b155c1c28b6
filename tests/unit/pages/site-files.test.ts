import { describe, expect, it } from "vitest";
import { PUBLIC_PATHS, renderRobotsTxt, renderSecurityTxt, renderSitemap, webManifest } from "~/domain/site-files";

const site = "https://www.example.com";

describe("robots.txt", () => {
  it("keeps crawlers out of the API and the mailbox, not off the signed-in pages, and names the sitemap", () => {
    const robots = renderRobotsTxt(site);
    for (const path of ["/api/", "/dev/"]) expect(robots).toContain(`Disallow: ${path}\n`);
    // The signed-in pages send a crawler to the login page (decision 0080); a Disallow would only name them.
    for (const path of ["/admin", "/licenses", "/billing", "/profile", "/team"]) expect(robots).not.toContain(path);
    expect(robots).toContain(`Sitemap: ${site}/sitemap.xml`);
    expect(robots).not.toMatch(/Disallow: \/\n/);
  });
});

describe("sitemap.xml", () => {
  it("lists every public page, dating the release pages by the newest release", () => {
    const xml = renderSitemap(site, "2026-11-01");
    for (const path of PUBLIC_PATHS) expect(xml).toContain(`<loc>${site}${path}</loc>`);
    expect(xml).toContain(`<loc>${site}/release-notes</loc><lastmod>2026-11-01</lastmod>`);
    expect(xml).not.toContain("/licenses");
    expect(renderSitemap(site, null)).not.toContain("<lastmod>");
  });

  it("escapes what XML would misread", () => {
    expect(renderSitemap("https://a.example/x&y", null)).toContain("https://a.example/x&amp;y/download");
  });
});

describe("security.txt (RFC 9116)", () => {
  it("has a contact, an expiry within a year, the canonical address and a language", () => {
    const text = renderSecurityTxt({
      supportEmail: "support@example.com",
      publicUrl: site,
      now: new Date("2026-11-23T10:00:00Z"),
    });
    expect(text).toContain("Contact: mailto:support@example.com\n");
    expect(text).toContain("Expires: 2027-11-23T00:00:00.000Z\n");
    expect(text).toContain(`Canonical: ${site}/.well-known/security.txt\n`);
    expect(text).toContain("Preferred-Languages: en\n");
  });
});

describe("web manifest", () => {
  it("names the product and lists the icons the site serves", () => {
    const manifest = webManifest("Acme Forge");
    expect(manifest).toMatchObject({ name: "Acme Forge", start_url: "/", display: "standalone" });
    expect(manifest.icons.map((icon) => icon.src)).toEqual(["/favicon.svg", "/apple-touch-icon.png", "/icon-512.png"]);
  });
});
