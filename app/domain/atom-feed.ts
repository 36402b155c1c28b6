import { releaseAnchor } from "./release-format";

export interface FeedRelease {
  version: string;
  title: string | null;
  release_date: string;
  release_notes: string[];
  channel?: string;
}

const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** An Atom 1.0 feed of the releases (newest first, as given). */
export function renderReleaseFeed({
  productName,
  publicUrl,
  releases,
  channel = "stable",
}: {
  productName: string;
  publicUrl: string;
  releases: FeedRelease[];
  /** The feed's channel: "beta" names itself and its own address (?channel=beta). */
  channel?: "stable" | "beta";
}): string {
  const pageUrl = `${publicUrl}/release-notes`;
  const feedId = channel === "beta" ? `${pageUrl}?channel=beta` : pageUrl;
  const updated = releases[0] ? `${releases[0].release_date}T00:00:00Z` : "1970-01-01T00:00:00Z";
  const entries = releases.map((release) => {
    const url = `${pageUrl}#${releaseAnchor(release.version)}`;
    const beta = release.channel === "beta" ? " (beta)" : "";
    const title = `Version ${release.version}${beta}${release.title ? ` — ${release.title}` : ""}`;
    const html = `<ul>${release.release_notes.map((note) => `<li>${escapeHtml(note)}</li>`).join("")}</ul>`;
    const date = `${release.release_date}T00:00:00Z`;
    return [
      "  <entry>",
      `    <id>${escapeXml(url)}</id>`,
      `    <title>${escapeXml(title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
      `    <published>${date}</published>`,
      `    <updated>${date}</updated>`,
      `    <content type="html">${escapeXml(html)}</content>`,
      "  </entry>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(feedId)}</id>`,
    `  <title>${escapeXml(`${productName} release notes${channel === "beta" ? " (beta channel)" : ""}`)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${escapeXml(productName)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${publicUrl}/release-notes.atom${channel === "beta" ? "?channel=beta" : ""}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(pageUrl)}"/>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
