import { Minus, Plus } from "~/components/lucide-icons";
import type { ReactNode } from "react";
import { Button } from "../ui/button";
import { useHydrated } from "../use-hydrated";

/**
 * One number of an extension (months or years) with a minus and a plus. Once the scripts run they
 * change the number in place; before (or without JavaScript) each is a link to the page with one
 * fewer or one more (`stepHref`), whose total the server prints, and the number can be typed.
 */
export function ExtensionStepper({
  id,
  label,
  value,
  max,
  onChange,
  stepHref,
}: {
  id: "months" | "years";
  label: string;
  value: number;
  max: number;
  onChange: (v: number) => void;
  /** The page's address with this number set to `next`. */
  stepHref: (next: number) => string;
}) {
  const hydrated = useHydrated();
  const step = (next: number, name: string, icon: ReactNode, allowed: boolean) =>
    hydrated ? (
      <Button
        type="button"
        variant="outline"
        size="icon"
        aria-label={name}
        disabled={!allowed}
        onClick={() => onChange(next)}
      >
        {icon}
      </Button>
    ) : (
      <Button asChild variant="outline" size="icon">
        {allowed ? (
          <a href={stepHref(next)} aria-label={name}>
            {icon}
          </a>
        ) : (
          <span role="link" aria-label={name} aria-disabled="true">
            {icon}
          </span>
        )}
      </Button>
    );
  return (
    <div className="flex items-center justify-between gap-4">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <div className="flex items-center gap-2">
        {step(value - 1, `Fewer ${label.toLowerCase()}`, <Minus aria-hidden />, value > 0)}
        <input
          id={id}
          name={id}
          type="number"
          min={0}
          max={max}
          value={value}
          onChange={(e) => onChange(Math.max(0, Math.min(max, Math.trunc(Number(e.target.value) || 0))))}
          className="h-9 w-16 rounded-md border border-input bg-background/60 text-center"
        />
        {step(value + 1, `More ${label.toLowerCase()}`, <Plus aria-hidden />, value < max)}
      </div>
    </div>
  );
}
