import { lazy, startTransition, Suspense, useEffect, useState } from "react";

const Toaster = lazy(() => import("./toaster-ready"));

/**
 * The toaster, downloaded after the page has hydrated so it does not weigh on first load. Asked for in
 * a task of its own, as a transition: loading its code appends its module preloads, a few milliseconds
 * each in Chromium, which inside the render that follows hydration made part of one long task
 * (decision 0088). Toasts wait for it to mount (`toasterMounted`).
 */
export function LazyToaster() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setWanted(true)), 0);
    return () => clearTimeout(timer);
  }, []);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
