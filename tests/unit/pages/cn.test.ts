import { describe, expect, it } from "vitest";
import { cn } from "~/lib/utils";

describe("cn: later utilities of the same group win", () => {
  it.each([
    ["gap-6 px-6", "gap-4", "px-6 gap-4"],
    ["text-sm font-medium", "text-lg", "font-medium text-lg"],
    ["text-sm text-muted-foreground", "text-base", "text-muted-foreground text-base"],
    ["bg-card text-card-foreground", "bg-primary", "text-card-foreground bg-primary"],
    ["h-9 px-4", "h-11 px-6", "h-11 px-6"],
    ["border bg-card", "border-primary", "border bg-card border-primary"],
    // Colours whose names begin like a side (t, b, l, r) are colours, not widths: the border stays.
    ["border px-2", "border-transparent", "border px-2 border-transparent"],
    ["border", "border-border text-foreground", "border border-border text-foreground"],
    ["border-b", "border-border", "border-b border-border"],
    ["border-t", "border-x-2", "border-t border-x-2"],
    ["border-t", "border-t-4", "border-t-4"],
    ["border-2", "border", "border"],
    ["rounded-xl border", "rounded-none", "border rounded-none"],
    ["shadow-sm", "shadow-lg shadow-primary/10", "shadow-lg shadow-primary/10"],
    ["flex flex-col", "hidden", "flex-col hidden"],
    ["hidden md:flex", "", "hidden md:flex"],
    ["p-4 hover:bg-accent", "hover:bg-muted", "p-4 hover:bg-muted"],
    ["w-fit whitespace-nowrap", "w-full", "whitespace-nowrap w-full"],
    ["font-semibold leading-tight", "font-normal leading-snug", "font-normal leading-snug"],
    ["mt-24 max-h-[85dvh]", "mt-0", "max-h-[85dvh] mt-0"],
  ])("%s + %s → %s", (base, extra, expected) => {
    expect(cn(base, extra)).toBe(expected);
  });

  it("keeps unrelated and conditional classes", () => {
    const showB = Math.random() > 2;
    expect(cn("a", showB && "b", undefined, ["c", { d: true, e: false }])).toBe("a c d");
    expect(cn("text-center text-sm", "text-primary")).toBe("text-center text-sm text-primary");
  });
});

describe("cn: a shorthand overrides the longhands it covers, never the other way round", () => {
  it.each([
    // inset sets all four sides; inset-x only left and right.
    ["inset-0", "inset-x-0", "inset-0 inset-x-0"],
    ["inset-x-0", "inset-0", "inset-0"],
    ["top-0 left-0", "inset-0", "inset-0"],
    ["inset-0", "top-4", "inset-0 top-4"],
    ["inset-y-0", "top-2", "inset-y-0 top-2"],
    ["left-2", "inset-x-4", "inset-x-4"],
    // p sets every side; px only left and right.
    ["p-2", "px-4", "p-2 px-4"],
    ["px-4", "p-2", "p-2"],
    ["pt-1 pb-1", "py-3", "py-3"],
    ["pl-2", "px-3", "px-3"],
    ["m-2", "mt-4", "m-2 mt-4"],
    ["mx-auto", "m-0", "m-0"],
    ["w-4 h-4", "size-6", "size-6"],
    ["size-6", "w-4", "size-6 w-4"],
    ["gap-x-2", "gap-4", "gap-4"],
    ["border-t-2", "border-0", "border-0"],
    ["md:px-4", "md:p-2", "md:p-2"],
    ["md:px-4", "p-2", "md:px-4 p-2"],
  ])("%s + %s → %s", (base, extra, expected) => {
    expect(cn(base, extra)).toBe(expected);
  });
});

describe("cn: font size with a line height", () => {
  it.each([
    ["text-sm/6", "text-lg", "text-lg"],
    ["text-lg", "text-sm/6", "text-sm/6"],
    ["leading-7", "text-sm/6", "text-sm/6"],
    ["text-sm/6", "leading-7", "text-sm/6 leading-7"],
    ["text-sm/6", "text-primary/80", "text-sm/6 text-primary/80"],
    ["text-primary", "text-muted-foreground/70", "text-muted-foreground/70"],
  ])("%s + %s → %s", (base, extra, expected) => {
    expect(cn(base, extra)).toBe(expected);
  });
});

describe("cn: rings and outlines (width, colour, offset and style are separate)", () => {
  it.each([
    ["ring-2", "ring-4", "ring-4"],
    ["ring", "ring-0", "ring-0"],
    ["ring-2 ring-primary", "ring-destructive", "ring-2 ring-destructive"],
    ["focus-visible:ring-2", "focus-visible:ring-[3px]", "focus-visible:ring-[3px]"],
    ["focus-visible:ring-ring/50", "focus-visible:ring-destructive/40", "focus-visible:ring-destructive/40"],
    ["ring-offset-2 ring-offset-background", "ring-offset-0", "ring-offset-background ring-offset-0"],
    ["ring-2", "ring-inset", "ring-2 ring-inset"],
    ["outline-none", "outline-2", "outline-none outline-2"],
    ["outline-2 outline-ring", "outline-4", "outline-ring outline-4"],
    ["outline-ring", "outline-primary", "outline-primary"],
    ["outline-none", "outline-hidden", "outline-hidden"],
    ["outline-offset-2", "outline-offset-4", "outline-offset-4"],
    ["ring-2", "outline-2", "ring-2 outline-2"],
  ])("%s + %s → %s", (base, extra, expected) => {
    expect(cn(base, extra)).toBe(expected);
  });
});
