import { authCookies } from "~/server/auth/auth-cookies.server";
import { redirect } from "react-router";
import { getAuth } from "~/server/auth/auth.server";
import { getLogger } from "~/server/logger.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/logout";

/**
 * Log Out: ends the session on the server, clears the cookie, goes to /. A resource route gets no
 * Origin check from React Router, so it makes its own: another site cannot sign the user out.
 */
export async function action({ request }: Route.ActionArgs) {
  if (!isSameOrigin(request))
    return new Response("Cross-site sign-out refused.", { status: 403, headers: { "Content-Type": "text/plain" } });
  try {
    const result = await getAuth().api.signOut({ headers: request.headers, returnHeaders: true });
    return redirect("/", { headers: authCookies(result.headers) });
  } catch (error) {
    getLogger().error({ err: error }, "sign-out failed");
    return redirectWithToast("/", {
      title: "Error",
      description: error instanceof Error ? error.message : "Could not log out. Please try again.",
      variant: "destructive",
    });
  }
}

/** A browser's POST carries Origin; it must name this site (the Host it was sent to). */
function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin === null) return true;
  try {
    return new URL(origin).host === new URL(request.url).host;
  } catch {
    return false;
  }
}

export async function loader() {
  return redirect("/");
}
