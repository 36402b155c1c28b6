import { createCookieSessionStorage, redirect } from "react-router";
import { z } from "zod";
import { TOAST_COOKIE } from "~/server/cache/caches.server";
import { getEnv } from "~/server/env.server";

/** A one-shot toast carried across a redirect in a short-lived signed cookie. */
export const flashToastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  variant: z.enum(["default", "success", "destructive"]).optional(),
});
export type FlashToast = z.infer<typeof flashToastSchema>;

type ToastSessionData = { toast: FlashToast };
let storage: ReturnType<typeof createCookieSessionStorage<ToastSessionData, ToastSessionData>> | undefined;
function toastStorage() {
  const env = getEnv();
  storage ??= createCookieSessionStorage<ToastSessionData, ToastSessionData>({
    cookie: {
      name: TOAST_COOKIE,
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: !env.embedded,
      secrets: [env.BETTER_AUTH_SECRET],
      maxAge: 60,
    },
  });
  return storage;
}

/** Set-Cookie value that carries a toast to the next page. */
export async function toastCookie(toast: FlashToast): Promise<string> {
  const session = await toastStorage().getSession();
  session.flash("toast", toast);
  return toastStorage().commitSession(session);
}

/** A redirect that shows a toast on the page it lands on. */
export async function redirectWithToast(url: string, toast: FlashToast, init: ResponseInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(toast));
  return redirect(url, { ...init, headers });
}

/** Reads (and clears) the pending toast for the root loader. */
export async function readToast(request: Request): Promise<{ toast: FlashToast | null; setCookie: string | null }> {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes(`${TOAST_COOKIE}=`)) return { toast: null, setCookie: null };
  const session = await toastStorage().getSession(cookie);
  const parsed = flashToastSchema.safeParse(session.get("toast"));
  return {
    toast: parsed.success ? parsed.data : null,
    setCookie: await toastStorage().destroySession(session),
  };
}
