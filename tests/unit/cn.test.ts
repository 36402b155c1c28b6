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
