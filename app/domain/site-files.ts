/**
 * The small files crawlers, browsers and security researchers look for at well-known addresses:
 * robots.txt, sitemap.xml, security.txt (RFC 9116) and the web app manifest.
 */

/** The pages a search engine should know: the public ones (the account pages are for people signed in). */
export const PUBLIC_PATHS = [
  "/",
  "/download",
  "/pricing",
  "/release-notes",
  "/contact",
  "/privacy-policy",
  "/terms-of-service",
  "/refund-policy",
] as const;

/**
 * Crawl the public pages, not the API or the demo's mailbox (both answer without a session); where the
 * sitemap is. The account and admin pages are not listed: they answer a crawler with the way to the login
 * page, so a Disallow would only advertise their paths and mark them uncrawlable (decision 0080).
 */
export function renderRobotsTxt(publicUrl: string): string {
  const disallowed = ["/dev/", "/api/"];
  return [
    "User-agent: *",
    ...disallowed.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/** The public pages, the release notes dated by the newest release (YYYY-MM-DD) when there is one. */
export function renderSitemap(publicUrl: string, latestReleaseDate: string | null): string {
  const urls = PUBLIC_PATHS.map((path) => {
    const lastmod =
      latestReleaseDate && (path === "/release-notes" || path === "/download" || path === "/")
        ? `<lastmod>${escapeXml(latestReleaseDate)}</lastmod>`
        : "";
    return `  <url><loc>${escapeXml(`${publicUrl}${path === "/" ? "/" : path}`)}</loc>${lastmod}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/** RFC 9116: who to tell about a vulnerability, until when this file holds (a year from now). */
export function renderSecurityTxt({
  supportEmail,
  publicUrl,
  now,
}: {
  supportEmail: string;
  publicUrl: string;
  now: Date;
}): string {
  const expires = new Date(now.getTime() + 365 * 24 * 60 * 60 * 1000);
  expires.setUTCHours(0, 0, 0, 0);
  return [
    `Contact: mailto:${supportEmail}`,
    `Expires: ${expires.toISOString()}`,
    "Preferred-Languages: en",
    `Canonical: ${publicUrl}/.well-known/security.txt`,
    `Policy: ${publicUrl}/terms-of-service`,
    "",
  ].join("\n");
}

/** The web app manifest: name, colours and icons for a home-screen shortcut. */
export function webManifest(productName: string) {
  return {
    name: productName,
    short_name: productName,
    description: `${productName}, the Windows desktop developer tool: download, buy and manage licenses.`,
    start_url: "/",
    display: "standalone",
    background_color: "#0b0f14",
    theme_color: "#0b0f14",
    icons: [
      { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
      { src: "/apple-touch-icon.png", sizes: "180x180", type: "image/png" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
    ],
  };
}
