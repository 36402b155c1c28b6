import { redirect } from "react-router";
import { getAuth } from "~/server/auth/auth.server";
import { getLogger } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/logout";

/** Log Out: ends the session on the server, clears the cookie, goes to /. */
export async function action({ request }: Route.ActionArgs) {
  try {
    const result = await getAuth().api.signOut({ headers: request.headers, returnHeaders: true });
    const headers = new Headers();
    result.headers.forEach((value, key) => {
      if (key.toLowerCase() === "set-cookie") headers.append("Set-Cookie", value);
    });
    return redirect("/", { headers });
  } catch (error) {
    getLogger().error({ err: error }, "sign-out failed");
    return redirectWithToast("/", {
      title: "Error",
      description: error instanceof Error ? error.message : "Could not log out. Please try again.",
      variant: "destructive",
    });
  }
}

export async function loader() {
  return redirect("/");
}
