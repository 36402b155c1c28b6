import { describe, expect, it } from "vitest";
import { renderReleaseFeed } from "~/domain/atom-feed";
import { formatReleaseDate, releaseAnchor } from "~/domain/release-format";

const releases = [
  {
    version: "2.0.0",
    title: "Tom & Jerry <edition>",
    release_date: "2026-11-03",
    release_notes: ['Fixed a "quote" & <tag>', "It's done"],
  },
  { version: "1.9.1", title: null, release_date: "2026-01-12", release_notes: ["Small fix"] },
];

describe("release dates and anchors", () => {
  it("formats the date the same everywhere, without time zones", () => {
    expect(formatReleaseDate("2026-11-03")).toBe("November 3, 2026");
    expect(formatReleaseDate("2026-01-31")).toBe("January 31, 2026");
    expect(formatReleaseDate("not a date")).toBe("not a date");
  });
  it("anchors releases by version", () => {
    expect(releaseAnchor("2.4.0")).toBe("v2-4-0");
    expect(releaseAnchor(" 3.0 beta ")).toBe("v3-0-beta");
  });
});

describe("Atom feed", () => {
  const xml = renderReleaseFeed({ productName: "ForgeKit", publicUrl: "https://www.example.com", releases });

  it("is an Atom 1.0 feed with self and alternate links", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(xml).toContain(
      '<link rel="self" type="application/atom+xml" href="https://www.example.com/release-notes.atom"/>',
    );
    expect(xml).toContain("<title>ForgeKit release notes</title>");
    expect(xml).toContain("<updated>2026-11-03T00:00:00Z</updated>");
  });

  it("has one entry per release, in the order given, with stable ids", () => {
    const entries = xml.match(/<entry>[\s\S]*?<\/entry>/g)!;
    expect(entries).toHaveLength(2);
    expect(entries[0]).toContain("<id>https://www.example.com/release-notes#v2-0-0</id>");
    expect(entries[1]).toContain("<title>Version 1.9.1</title>");
  });

  it("escapes titles and notes", () => {
    expect(xml).toContain("<title>Version 2.0.0 — Tom &amp; Jerry &lt;edition&gt;</title>");
    // Notes are HTML inside XML: escaped twice.
    expect(xml).toContain("&lt;li&gt;Fixed a &amp;quot;quote&amp;quot; &amp;amp; &amp;lt;tag&amp;gt;&lt;/li&gt;");
    expect(xml).not.toMatch(/<tag>/);
  });

  it("an empty feed is still valid", () => {
    const empty = renderReleaseFeed({ productName: "ForgeKit", publicUrl: "https://x.example", releases: [] });
    expect(empty).toContain("<updated>1970-01-01T00:00:00Z</updated>");
    expect(empty).not.toContain("<entry>");
  });
});
