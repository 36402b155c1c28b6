import { pageTitle } from "~/lib/meta";
import { failure, rateLimited } from "~/http/action-reply.server";
import { authCookies } from "~/server/auth/auth-cookies.server";
import { APIError } from "better-auth/api";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { OAuthButtons } from "~/components/oauth-buttons";
import { ACCOUNT_TEXTS, PROVIDER_EMAIL_UNVERIFIED } from "~/domain/account-texts";
import { configuredOAuthProviders } from "~/server/auth/oauth-providers.server";
import { getEnv } from "~/server/env.server";
import { AuthCard } from "~/components/auth-card";
import { FormError, FormField, FormMessage } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { useActionToast } from "~/components/use-action-toast";
import { Spinner } from "~/components/ui/spinner";
import { loginSchema } from "~/domain/auth-schemas";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { withReturnTo } from "~/domain/return-to";
import { parseForm, useFormValidation } from "~/lib/form";
import { getAuth, withClientIp } from "~/server/auth/auth.server";
import { hitRateLimit } from "~/server/auth/rate-limit.server";
import { checkSignIn, recordSignInFailure, recordSignInSuccess } from "~/server/auth/sign-in-guard.server";
import { safeRedirect } from "~/server/auth/session.server";
import { requireAnonymous } from "~/http/session-guards.server";
import { getLogger } from "~/server/logger.server";
import { redirectWithToast } from "~/http/toast.server";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/login";

/** What a provider sign-in that came back with `?error=<code>` tells the person. */
const OAUTH_ERRORS = new Map<string, string>([
  ["account_not_linked", ACCOUNT_TEXTS.oauthAccountNotLinked],
  ["unable_to_create_session", ACCOUNT_TEXTS.oauthTwoFactor],
  [PROVIDER_EMAIL_UNVERIFIED, ACCOUNT_TEXTS.oauthEmailUnverified],
]);

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const error = new URL(request.url).searchParams.get("error");
  return {
    providers: configuredOAuthProviders(getEnv()),
    oauthError: error ? (OAUTH_ERRORS.get(error) ?? ACCOUNT_TEXTS.oauthFailed) : null,
  };
}

function needsSecondFactor(response: unknown): boolean {
  return typeof response === "object" && response !== null && "twoFactorRedirect" in response;
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  const parsed = parseForm(loginSchema, formData);
  if (!parsed.success)
    return data({ fieldErrors: parsed.fieldErrors, unverifiedEmail: null, toast: null }, { status: 400 });
  const { email, password, redirectTo } = parsed.data;

  // Every attempt counts against the client's IP; per address only failures count, and they hold
  // back only the clients that failed (no targeted lockout of the owner: sign-in-guard.server.ts).
  const limit = await hitRateLimit([`sign-in:ip:${context.clientIp}`]);
  const guard = limit.limited ? null : await checkSignIn(email, context.clientIp);
  if (limit.limited || (guard && !guard.allowed)) {
    const retryAfter = guard && !guard.allowed ? guard.retryAfter : limit.retryAfter;
    return rateLimited(T.loginFailedTitle, retryAfter, { unverifiedEmail: null });
  }

  try {
    const result = await getAuth().api.signInEmail({
      body: { email, password },
      headers: withClientIp(request.headers, context.clientIp),
      returnHeaders: true,
    });
    await recordSignInSuccess(email, context.clientIp);
    // Two-factor on: the password was right, the code comes next (Better Auth set its cookie).
    if (needsSecondFactor(result.response)) {
      return redirect(`/login/two-factor?redirectTo=${encodeURIComponent(safeRedirect(redirectTo))}`, {
        headers: authCookies(result.headers),
      });
    }
    return redirectWithToast(
      safeRedirect(redirectTo),
      { title: T.loginSuccess, variant: "success" },
      { headers: authCookies(result.headers) },
    );
  } catch (error) {
    if (error instanceof APIError) {
      if (error.body?.code === "INVALID_EMAIL_OR_PASSWORD") await recordSignInFailure(email, context.clientIp);
      if (error.body?.code === "EMAIL_NOT_VERIFIED") {
        return data({ fieldErrors: { form: [T.unverified] }, unverifiedEmail: email, toast: null }, { status: 403 });
      }
      const message = error.body?.message || T.loginFailedFallback;
      const status = error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 401;
      return failure(status, { title: T.loginFailedTitle, description: message }, { unverifiedEmail: null });
    }
    getLogger().error({ err: error }, "sign-in failed");
    return failure(500, { title: T.errorTitle, description: T.loginUnexpected }, { unverifiedEmail: null });
  }
}

export default function Login({ actionData, loaderData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/login");
  const { errors, onSubmit } = useFormValidation(loginSchema, actionData?.fieldErrors);
  useActionToast(actionData);

  return (
    <AuthCard
      title="Log in"
      description="Welcome back. Log in to manage your licenses."
      footer={
        <>
          No account yet?{" "}
          <Link
            to={withReturnTo("/register", searchParams.get("redirectTo"))}
            className="text-primary underline underline-offset-4"
          >
            Register
          </Link>
        </>
      }
    >
      <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/"} />
        {errors.form ? (
          <FormError errors={errors} answer={actionData} />
        ) : (
          <FormMessage>{loaderData.oauthError ?? undefined}</FormMessage>
        )}
        <FormField
          id="email"
          name="email"
          type="email"
          label="E-mail"
          autoComplete="email"
          required
          errors={errors.email}
        />
        <FormField
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          errors={errors.password}
        />
        <div className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="text-primary underline underline-offset-4">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner aria-label="Logging in" /> : null}
          Log in
        </Button>
      </Form>
      <OAuthButtons providers={loaderData.providers} redirectTo={searchParams.get("redirectTo") ?? "/"} />
      {actionData?.unverifiedEmail ? (
        <Form method="post" action="/confirm-email" className="flex flex-col gap-2">
          <input type="hidden" name="email" value={actionData.unverifiedEmail} />
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/"} />
          <Button type="submit" variant="secondary">
            Resend confirmation e-mail
          </Button>
        </Form>
      ) : null}
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Log in"),
  { name: "description", content: "Log in to your account to manage your licenses and profile." },
];
