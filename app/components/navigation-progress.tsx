import { useEffect, useState } from "react";
import { useFetchers, useNavigation } from "react-router";

/** How long a navigation or submission runs before the bar shows (quick ones do not flash it). */
export const PROGRESS_DELAY_MS = 150;

/**
 * A thin bar at the top of the window while a navigation or a form submission (a page's or a
 * fetcher's) is pending, shown after a short delay; announced to assistive technology as busy.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const pending = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setVisible(true), PROGRESS_DELAY_MS);
    return () => {
      clearTimeout(timer);
      setVisible(false);
    };
  }, [pending]);
  if (!pending || !visible) return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading"
      aria-busy="true"
      data-testid="navigation-progress"
      className="pointer-events-none fixed inset-x-0 top-0 z-[60] h-0.5 overflow-hidden bg-primary/20"
    >
      <div className="h-full w-1/3 animate-progress bg-primary" />
    </div>
  );
}
