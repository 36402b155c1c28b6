import { lazy, Suspense, useEffect, useState } from "react";

const Toaster = lazy(() => import("./toaster-ready"));

/** The toaster, downloaded after the page has hydrated so it does not weigh on first load. */
export function LazyToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
