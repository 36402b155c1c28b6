import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names; when two Tailwind utilities set the same thing (same variants, same
 * group: `gap-6` then `gap-4`, `text-sm` then `text-lg`, `bg-card` then `bg-primary`),
 * the later one wins. A small stand-in for tailwind-merge that covers the utilities
 * this app passes to its primitives, at a fraction of its weight on every page.
 */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs);
  let merged = merges.get(joined);
  if (merged === undefined) {
    merged = merge(joined);
    // The app's class lists are a small fixed set (variants × a few call sites): remember them, but
    // never without bound, whatever a caller passes.
    if (merges.size >= 2000) merges.clear();
    merges.set(joined, merged);
  }
  return merged;
}

/** Merged class lists by input: server rendering calls cn() hundreds of times a page with the same lists. */
const merges = new Map<string, string>();

function merge(joined: string): string {
  const classes = joined.split(/\s+/).filter(Boolean);
  const seen = new Set<string>();
  const kept: string[] = [];
  // From the last class back: a class is dropped when everything it sets was set later, by the
  // same group or by a shorthand that covers it (p-2 covers an earlier px-4, inset-0 an inset-x-0).
  for (let i = classes.length - 1; i >= 0; i--) {
    const cls = classes[i]!;
    const groups = conflictGroups(cls);
    if (groups.length > 0 && groups.every((group) => isCovered(group, seen))) continue;
    for (const group of groups) seen.add(group);
    kept.push(cls);
  }
  return kept.reverse().join(" ");
}

/** Shorthands that set a longhand group too: a later shorthand overrides an earlier longhand. */
const COVERED_BY: Record<string, string[]> = {
  px: ["p"],
  py: ["p"],
  pt: ["p", "py"],
  pb: ["p", "py"],
  pl: ["p", "px"],
  pr: ["p", "px"],
  mx: ["m"],
  my: ["m"],
  mt: ["m", "my"],
  mb: ["m", "my"],
  ml: ["m", "mx"],
  mr: ["m", "mx"],
  "inset-x": ["inset"],
  "inset-y": ["inset"],
  top: ["inset", "inset-y"],
  bottom: ["inset", "inset-y"],
  left: ["inset", "inset-x"],
  right: ["inset", "inset-x"],
  "gap-x": ["gap"],
  "gap-y": ["gap"],
  w: ["size"],
  h: ["size"],
  "rounded-t": ["rounded"],
  "rounded-b": ["rounded"],
  "border-widthx": ["border-width"],
  "border-widthy": ["border-width"],
  "border-widtht": ["border-width", "border-widthy"],
  "border-widthb": ["border-width", "border-widthy"],
  "border-widthl": ["border-width", "border-widthx"],
  "border-widthr": ["border-width", "border-widthx"],
  // text-sm/6 sets the line height too: a later font size or leading replaces that part.
  "text-leading": ["text-size", "leading"],
  leading: ["text-leading"],
};

function isCovered(group: string, seen: Set<string>): boolean {
  if (seen.has(group)) return true;
  const bar = group.indexOf("|");
  const variants = group.slice(0, bar + 1);
  return (COVERED_BY[group.slice(bar + 1)] ?? []).some((shorthand) => seen.has(`${variants}${shorthand}`));
}

const TEXT_SIZES = new Set(["xs", "sm", "base", "lg", "xl", "2xl", "3xl", "4xl", "5xl", "6xl", "7xl", "8xl", "9xl"]);
const FONT_WEIGHTS = new Set([
  "thin",
  "extralight",
  "light",
  "normal",
  "medium",
  "semibold",
  "bold",
  "extrabold",
  "black",
]);
const DISPLAY = new Set([
  "block",
  "inline-block",
  "inline",
  "flex",
  "inline-flex",
  "grid",
  "inline-grid",
  "hidden",
  "contents",
  "table",
]);
const POSITION = new Set(["static", "fixed", "absolute", "relative", "sticky"]);
// Longest first, so "gap-x" is found before "gap" and "min-w" before "w".
const PREFIXES = [
  "grid-cols",
  "col-span",
  "gap-x",
  "gap-y",
  "min-w",
  "min-h",
  "max-w",
  "max-h",
  "rounded-t",
  "rounded-b",
  "inset-x",
  "inset-y",
  "px",
  "py",
  "pt",
  "pr",
  "pb",
  "pl",
  "mx",
  "my",
  "mt",
  "mr",
  "mb",
  "ml",
  "gap",
  "size",
  "rounded",
  "opacity",
  "leading",
  "tracking",
  "items",
  "justify",
  "self",
  "inset",
  "top",
  "left",
  "right",
  "bottom",
  "z",
  "w",
  "h",
  "p",
  "m",
];

/**
 * The property groups a utility sets, with its variants (e.g. "md:hover:|px"): none for a class
 * this helper does not know, two for one that sets two things (text-sm/6 sets size and leading).
 */
export function conflictGroups(cls: string): string[] {
  const group = conflictGroup(cls);
  if (!group) return [];
  const bar = group.indexOf("|");
  const utility = cls.slice(cls.lastIndexOf(":") + 1);
  if (group.endsWith("|text-size") && /^text-[^/]+\/[^/]+$/.test(utility))
    return [group, `${group.slice(0, bar + 1)}text-leading`];
  return [group];
}

/** The property group a utility sets, with its variants (e.g. "md:hover:|px"), or null. */
export function conflictGroup(cls: string): string | null {
  const colon = cls.lastIndexOf(":");
  const variants = colon >= 0 ? cls.slice(0, colon + 1) : "";
  const utility = cls
    .slice(colon + 1)
    .replace(/^!/, "")
    .replace(/^-/, "");
  // Arbitrary values keep their prefix: "text-[oklch(...)]" is a colour, "w-[30%]" a width.
  const arbitrary = /^(.*?)-\[(.*)\]$/.exec(utility);
  if (DISPLAY.has(utility)) return `${variants}|display`;
  if (POSITION.has(utility)) return `${variants}|position`;
  if (utility.startsWith("text-")) {
    const value = utility.slice(5);
    if (TEXT_SIZES.has(value.split("/")[0]!)) return `${variants}|text-size`;
    if (["left", "center", "right", "justify", "start", "end"].includes(value)) return `${variants}|text-align`;
    if (["balance", "wrap", "nowrap", "pretty"].includes(value)) return `${variants}|text-wrap`;
    if (arbitrary && /^\d/.test(arbitrary[2]!)) return `${variants}|text-size`;
    return `${variants}|text-color`;
  }
  if (utility === "shadow" || utility.startsWith("shadow-")) {
    const value = utility.slice(7);
    const size = utility === "shadow" || ["2xs", "xs", "sm", "md", "lg", "xl", "2xl", "none", "inner"].includes(value);
    return `${variants}|shadow-${size ? "size" : "color"}`;
  }
  if (utility === "ring" || utility.startsWith("ring-")) {
    const value = utility.slice(5);
    if (value.startsWith("offset-"))
      return `${variants}|ring-offset-${/^offset-(\d|\[\d)/.test(value) ? "width" : "color"}`;
    if (value === "inset") return `${variants}|ring-inset`;
    return `${variants}|ring-${utility === "ring" || /^(\d|\[\d)/.test(value) ? "width" : "color"}`;
  }
  if (utility === "outline" || utility.startsWith("outline-")) {
    const value = utility.slice(8);
    if (value.startsWith("offset-")) return `${variants}|outline-offset`;
    if (["none", "hidden", "solid", "dashed", "dotted", "double"].includes(value)) return `${variants}|outline-style`;
    return `${variants}|outline-${utility === "outline" || /^(\d|\[\d)/.test(value) ? "width" : "color"}`;
  }
  if (utility.startsWith("font-")) {
    return FONT_WEIGHTS.has(utility.slice(5)) ? `${variants}|font-weight` : `${variants}|font-family`;
  }
  if (utility.startsWith("bg-")) {
    const value = utility.slice(3);
    if (
      value.startsWith("gradient") ||
      value.startsWith("clip") ||
      value.startsWith("[radial") ||
      value.startsWith("[linear")
    )
      return null;
    return `${variants}|bg-color`;
  }
  // A width: border, border-2, border-[3px], border-x, border-t-4; not a colour (border-transparent, border-border).
  if (utility === "border" || /^border-(\d|\[\d|[xytblr](?:$|-(?:\d|\[\d)))/.test(utility)) {
    const side = /^border-([xytblr])(?:$|-)/.exec(utility)?.[1] ?? "";
    return `${variants}|border-width${side}`;
  }
  if (
    utility.startsWith("border-") &&
    !["border-solid", "border-dashed", "border-dotted", "border-none"].includes(utility)
  ) {
    return `${variants}|border-color`;
  }
  for (const prefix of PREFIXES) {
    if (utility === prefix || utility.startsWith(`${prefix}-`)) {
      if (prefix === "rounded" && /^rounded-(t|b|l|r|tl|tr|bl|br)-/.test(utility)) return null;
      return `${variants}|${prefix}`;
    }
  }
  return null;
}
