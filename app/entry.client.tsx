import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

/**
 * Hydration starts once the browser has painted the server's page: on a slow phone the scripts may
 * arrive before the first frame, and their work would otherwise hold back the page the visitor can
 * already read (its largest text, Lighthouse's LCP). Hydration then runs as a transition, in slices.
 */
function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

requestAnimationFrame(() => setTimeout(hydrate, 0));
