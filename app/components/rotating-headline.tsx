import { useEffect, useState } from "react";

export const ROTATION_INTERVAL_MS = 4000;
export const FADE_MS = 300;

/**
 * A line that cycles through phrases every 4 s with a 0.3 s fade (docs/product.md, "Public pages").
 * Under prefers-reduced-motion it stays on the first phrase. Screen readers get every
 * phrase once, as a static sentence, instead of a line that keeps changing.
 */
export function RotatingHeadline({ phrases }: { phrases: readonly string[] }) {
  const [index, setIndex] = useState(0);
  const [visible, setVisible] = useState(true);

  useEffect(() => {
    if (phrases.length < 2) return;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    if (reduced.matches) return;
    let fade: ReturnType<typeof setTimeout> | undefined;
    const timer = setInterval(() => {
      setVisible(false);
      fade = setTimeout(() => {
        setIndex((i) => (i + 1) % phrases.length);
        setVisible(true);
      }, FADE_MS);
    }, ROTATION_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      if (fade) clearTimeout(fade);
    };
  }, [phrases.length]);

  return (
    <span className="block">
      <span className="sr-only">{phrases.join(" ")}</span>
      <span
        aria-hidden="true"
        data-testid="rotating-headline"
        className="block bg-gradient-to-r from-primary to-[oklch(0.82_0.12_160)] bg-clip-text text-transparent transition-opacity ease-in-out motion-reduce:transition-none"
        style={{ opacity: visible ? 1 : 0, transitionDuration: `${FADE_MS}ms` }}
      >
        {phrases[index]}
      </span>
    </span>
  );
}
