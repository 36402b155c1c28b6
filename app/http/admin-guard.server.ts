import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { SessionUser } from "~/domain/views";
import { adminAccess, type AdminRefusal } from "~/server/auth/admin-access.server";
import { failure } from "./action-reply.server";

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
function refuse(request: Request, { status, message, pageTo }: AdminRefusal): never {
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
 * Only an admin with two-factor authentication on passes; who may is decided by adminAccess
 * (app/server/auth/admin-access.server.ts), how a refusal is answered here.
 */
export const adminGuard: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const access = await adminAccess(request);
  if (access.refused) refuse(request, access.refused);
  context.set(adminContext, access.admin);
  return next();
};

/**
 * The signed-in admin, as the guard checked them. Throws when the guard did not run (a route
 * placed outside the admin layout): an admin route cannot answer without it.
 */
export function currentAdmin(context: Readonly<RouterContextProvider>): SessionUser {
  return context.get(adminContext);
}
