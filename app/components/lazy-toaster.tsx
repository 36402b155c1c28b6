import { lazy, Suspense } from "react";
import { useHydrated } from "./use-hydrated";

const Toaster = lazy(() => import("./toaster-ready"));

/** The toaster, downloaded after the page has hydrated so it does not weigh on first load. */
export function LazyToaster() {
  const hydrated = useHydrated();
  return hydrated ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
