import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { SessionUser } from "~/domain/views";
import { failure } from "../action-reply.server";
import { getCurrentSession, TWO_FACTOR_ENROL_PATH, TWO_FACTOR_REQUIRED_MESSAGE } from "./session.server";

const SIGNED_OUT_MESSAGE = "Please log in again.";
const NOT_AN_ADMIN_MESSAGE = "Only administrators can do this.";

/** The admin the guard let through; set by adminGuard only, so nothing under it runs without it. */
const adminContext = createContext<SessionUser>();

/** A file under /admin (its last path segment has an extension: `/admin/audit.csv`). */
function isFile(request: Request): boolean {
  const path = new URL(request.url).pathname.replace(/\.data$/, "");
  return /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * A refusal: a page read is redirected (docs/product.md, "Administration"); a file read and any write are told why with
 * 401 or 403, as a file has no page to redirect to and a post must not change anything silently.
 */
function refuse(request: Request, status: 401 | 403, message: string, pageTo: string): never {
  const read = request.method === "GET" || request.method === "HEAD";
  if (read && !isFile(request)) throw redirect(pageTo);
  if (read) {
    throw new Response(`${message}\n`, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  throw failure(status, { description: message, formError: false });
}

/**
 * The one guard of everything under /admin (routes/admin/layout.tsx): pages, actions and files.
 * Only an admin with two-factor authentication on passes (decision 0026). Signed
 * out: 401 (a page: sent to /); a user: 403 (a page: sent to /); an admin without two-factor:
 * 403 (a page: sent to turn it on). A write reads the session and role from the database, never
 * from a copy this server remembers (getCurrentSession), so a demoted admin's next write is refused
 * on every server.
 */
export const adminGuard: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { user, role, twoFactorEnabled } = await getCurrentSession(request);
  if (!user) refuse(request, 401, SIGNED_OUT_MESSAGE, "/");
  if (role !== "admin") refuse(request, 403, NOT_AN_ADMIN_MESSAGE, "/");
  if (!twoFactorEnabled) refuse(request, 403, TWO_FACTOR_REQUIRED_MESSAGE, TWO_FACTOR_ENROL_PATH);
  context.set(adminContext, user);
  return next();
};

/**
 * The signed-in admin, as the guard checked them. Throws when the guard did not run (a route
 * placed outside the admin layout): an admin route cannot answer without it.
 */
export function currentAdmin(context: Readonly<RouterContextProvider>): SessionUser {
  return context.get(adminContext);
}
