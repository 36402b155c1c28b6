import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names; when two Tailwind utilities set the same thing (same variants, same
 * group: `gap-6` then `gap-4`, `text-sm` then `text-lg`, `bg-card` then `bg-primary`),
 * the later one wins. A small stand-in for tailwind-merge that covers the utilities
 * this app passes to its primitives, at a fraction of its weight on every page.
 */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs).split(/\s+/).filter(Boolean);
  const seen = new Set<string>();
  const kept: string[] = [];
  for (let i = classes.length - 1; i >= 0; i--) {
    const cls = classes[i]!;
    const group = conflictGroup(cls);
    if (group) {
      if (seen.has(group)) continue;
      seen.add(group);
    }
    kept.push(cls);
  }
  return kept.reverse().join(" ");
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
    if (TEXT_SIZES.has(value)) return `${variants}|text-size`;
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
  if (utility === "border" || /^border-(\d|x|y|t|b|l|r|\[\d)/.test(utility)) {
    const side = /^border-(x|y|t|b|l|r)\b/.exec(utility)?.[1] ?? "";
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
