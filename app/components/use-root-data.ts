import { useRouteLoaderData } from "react-router";
import type { RootData } from "~/domain/views";

/** The root loader's data (user, role, public configuration), from any route or component. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}
