import { APIError } from "better-auth/api";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { FormError, FormField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { useActionToast } from "~/components/use-action-toast";
import { parseSecondFactor, signInCodeSchema } from "~/domain/account-schemas";
import { ACCOUNT_TEXTS as A, CODE_ALREADY_USED } from "~/domain/account-texts";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { parseForm, useFormValidation } from "~/lib/form";
import { pageTitle } from "~/lib/meta";
import { failure, rateLimited } from "~/http/action-reply.server";
import { withClientIp } from "~/server/auth/auth.server";
import { hitRateLimit } from "~/server/auth/rate-limit.server";
import { safeRedirect } from "~/server/auth/session.server";
import { requireAnonymous } from "~/http/session-guards.server";
import { checkSignIn, recordSignInFailure, recordSignInSuccess } from "~/server/auth/sign-in-guard.server";
import { completeSignIn, pendingTwoFactorUser } from "~/server/auth/two-factor.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/login.two-factor";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  if (!(await pendingTwoFactorUser(request))) throw redirect("/login");
  return null;
}

/** Failures of the second step count like wrong passwords, under a key of their own per account. */
const guardKey = (userId: string) => `two-factor:${userId}`;

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request);
  const pending = await pendingTwoFactorUser(request);
  if (!pending) {
    return redirectWithToast("/login", {
      title: A.twoFactorFailed,
      description: A.twoFactorExpired,
      variant: "destructive",
    });
  }
  const parsed = parseForm(signInCodeSchema, await readForm(request));
  if (!parsed.success) return data({ ok: false, fieldErrors: parsed.fieldErrors, toast: null }, { status: 400 });
  const factor = parseSecondFactor(parsed.data.code)!;

  const limit = await hitRateLimit([`two-factor:ip:${context.clientIp}`]);
  const guard = limit.limited ? null : await checkSignIn(guardKey(pending.id), context.clientIp);
  if (limit.limited || (guard && !guard.allowed)) {
    return rateLimited(A.twoFactorFailed, guard && !guard.allowed ? guard.retryAfter : limit.retryAfter);
  }
  try {
    const headers = await completeSignIn(
      new Request(request.url, { headers: withClientIp(request.headers, context.clientIp) }),
      pending.id,
      factor.code,
      factor.kind,
    );
    await recordSignInSuccess(guardKey(pending.id), context.clientIp);
    return redirectWithToast(
      safeRedirect(parsed.data.redirectTo),
      { title: T.loginSuccess, variant: "success" },
      { headers },
    );
  } catch (error) {
    if (error instanceof APIError) {
      const code = error.body?.code;
      // A replayed code is no guess (whoever sends it saw it): refused, not counted.
      if (code === CODE_ALREADY_USED) {
        return failure(401, { title: A.twoFactorFailed, description: A.codeUsed, fieldErrors: { code: [A.codeUsed] } });
      }
      if (code === "INVALID_CODE" || code === "INVALID_BACKUP_CODE") {
        await recordSignInFailure(guardKey(pending.id), context.clientIp);
        // The message fits what was typed: an app's code, or a recovery code.
        const wrong = factor.kind === "recovery" ? A.recoveryCodeWrong : A.codeWrong;
        return failure(401, { title: A.twoFactorFailed, description: wrong, fieldErrors: { code: [wrong] } });
      }
      // Too many wrong codes for this sign-in, or it expired: start again with the password.
      return redirectWithToast("/login", {
        title: A.twoFactorFailed,
        description: code === "INVALID_TWO_FACTOR_COOKIE" ? A.twoFactorExpired : error.body?.message || A.unexpected,
        variant: "destructive",
      });
    }
    getLogger().error({ err: error }, "two-factor sign-in failed");
    return failure(500, { title: A.twoFactorFailed, description: A.unexpected });
  }
}

export default function LoginTwoFactor({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const { errors, onSubmit } = useFormValidation(signInCodeSchema, actionData?.fieldErrors);
  useActionToast(actionData);
  return (
    <AuthCard
      title={A.twoFactorTitle}
      description="Enter the 6-digit code from your authenticator app, or one of your recovery codes."
      footer={
        <Link to="/login" className="text-primary underline underline-offset-4">
          Back to Login
        </Link>
      }
    >
      <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/"} />
        <FormError errors={errors} answer={actionData} />
        <FormField
          id="code"
          name="code"
          label="Code"
          autoComplete="one-time-code"
          inputMode="text"
          required
          hint="A recovery code works once; type it with or without its dash, in any case."
          errors={errors.code}
        />
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner aria-label="Verifying" /> : null}
          Verify
        </Button>
      </Form>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Two-step verification"),
  { name: "robots", content: "noindex" },
];
