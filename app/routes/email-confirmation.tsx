import { data, redirect } from "react-router";
import { useActionToast } from "~/components/use-action-toast";
import { ConfirmationCard, type ConfirmationView } from "~/components/account/confirmation-card";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/domain/auth-schemas";
import { CONFIRMATION_TEXTS as C } from "~/domain/email-change-texts";
import { ACCOUNT_TEXTS as A } from "~/domain/account-texts";
import { pageTitle } from "~/lib/meta";
import { rateLimited } from "~/http/action-reply.server";
import { readForm } from "~/http/read-form.server";
import { redirectWithToast } from "~/http/toast.server";
import { getAuth, withClientIp } from "~/server/auth/auth.server";
import { authCookies } from "~/server/auth/auth-cookies.server";
import { commonPasswordProblem } from "~/server/auth/common-passwords.server";
import { confirmationLink, confirmWithNewPassword, confirmWithPassword } from "~/server/auth/confirm-address.server";
import { hitRateLimit } from "~/server/auth/rate-limit.server";
import { checkSignIn, recordSignInFailure, recordSignInSuccess } from "~/server/auth/sign-in-guard.server";
import { safeRedirect } from "~/server/auth/session.server";
import type { Route } from "./+types/email-confirmation";

/**
 * `/email-confirmation?token=…&redirectTo=…`: where the registration's confirmation link lands
 * (decision 0059). The link alone signs nobody in and confirms nothing: its holder logs in
 * with the password chosen at registration, or chooses a new one here; either confirms the address.
 */
async function viewOf(token: string, redirectTo: string, error: ConfirmationError = null) {
  const link = await confirmationLink(token);
  if (link.state === "open") {
    const view: ConfirmationView = { kind: "open", token, email: link.email, redirectTo, error };
    return { view, status: error?.status ?? 200 };
  }
  if (link.state === "confirmed") return { view: { kind: "confirmed", email: link.email } as const, status: 200 };
  const message = link.state === "expired" ? C.expired : C.invalid;
  return { view: { kind: "closed", message } as const, status: link.state === "expired" ? 410 : 404 };
}

type ConfirmationError = { form: "sign-in" | "set-password"; message: string; status: number } | null;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { view, status } = await viewOf(
    url.searchParams.get("token") ?? "",
    safeRedirect(url.searchParams.get("redirectTo")),
  );
  return data<{ view: ConfirmationView }>({ view }, { status });
}

function newPasswordProblem(password: string, confirm: string): string | null {
  if (password !== confirm) return T.passwordMismatch;
  if (password.length < PASSWORD_MIN) return T.passwordTooShort;
  if (password.length > PASSWORD_MAX) return T.passwordTooLong;
  return commonPasswordProblem(password);
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = String(form.get("token") ?? "");
  const redirectTo = safeRedirect(form.get("redirectTo"));
  const password = String(form.get("password") ?? "");
  const intent = form.get("intent") === "set-password" ? "set-password" : "sign-in";
  const answer = async (message: string, status: number) => {
    const { view } = await viewOf(token, redirectTo, { form: intent, message, status });
    return data<{ view: ConfirmationView }>({ view }, { status: view.kind === "open" ? status : 410 });
  };
  const limit = await hitRateLimit([`confirm-link:ip:${context.clientIp}`]);
  if (limit.limited) return rateLimited(T.loginFailedTitle, limit.retryAfter, { view: null }, { formError: false });
  const link = await confirmationLink(token);
  if (link.state !== "open") return answer(C.invalid, 410);

  if (intent === "set-password") {
    const problem = newPasswordProblem(password, String(form.get("confirm") ?? ""));
    if (problem) return answer(problem, 400);
    await confirmWithNewPassword(link.userId, password);
  } else {
    // The sign-in's own guard: failures per address hold back the failing client (decision 0014).
    const guard = await checkSignIn(link.email, context.clientIp);
    if (!guard.allowed) return rateLimited(T.loginFailedTitle, guard.retryAfter, { view: null }, { formError: false });
    if (!password || password.length > PASSWORD_MAX || !(await confirmWithPassword(link.userId, password))) {
      await recordSignInFailure(link.email, context.clientIp);
      return answer(A.passwordWrong, 401);
    }
    await recordSignInSuccess(link.email, context.clientIp);
  }
  // Confirmed by the link and the password together: now the ordinary sign-in.
  const result = await getAuth().api.signInEmail({
    body: { email: link.email, password },
    headers: withClientIp(request.headers, context.clientIp),
    returnHeaders: true,
  });
  if (typeof result.response === "object" && result.response !== null && "twoFactorRedirect" in result.response) {
    return redirect(`/login/two-factor?redirectTo=${encodeURIComponent(redirectTo)}`, {
      headers: authCookies(result.headers),
    });
  }
  return redirectWithToast(
    redirectTo,
    { title: C.confirmedTitle, description: C.confirmedDescription, variant: "success" },
    { headers: authCookies(result.headers) },
  );
}

export default function EmailConfirmationRoute({ loaderData, actionData }: Route.ComponentProps) {
  useActionToast(actionData && "toast" in actionData ? actionData : undefined);
  return <ConfirmationCard view={(actionData && "view" in actionData && actionData.view) || loaderData.view} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Confirm your e-mail address"),
  { name: "description", content: "Confirm your e-mail address by logging in, or choose a password." },
  { name: "robots", content: "noindex" },
];
