import { RouterContextProvider } from "react-router";
import { adminGuard } from "~/http/admin-guard.server";
import { testContext } from "./route-call";

type Handler = (args: any) => unknown;

/**
 * Calls an admin route's loader or action as React Router does: the admin layout's guard first
 * (routes/admin/layout.tsx), then the handler with the context the guard filled in. A refusal is
 * thrown, as the guard throws it (a redirect, a 401/403 Response or data()).
 */
export async function throughAdminGuard(handler: Handler, request: Request, params: Record<string, string> = {}) {
  const context = Object.assign(new RouterContextProvider(), testContext());
  const args = { request, params, context, url: new URL(request.url), pattern: "" };
  return adminGuard(args, async () => (await handler(args)) as Response);
}

/** A file route's answer through the guard (a refusal is its 401/403 Response). */
export async function adminFile(handler: Handler, request: Request, params: Record<string, string> = {}) {
  try {
    return (await throughAdminGuard(handler, request, params)) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
