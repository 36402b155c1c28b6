import { pageTitle } from "~/lib/meta";
import { APIError } from "better-auth/api";
import { useEffect, useRef } from "react";
import { data, Form, useFetcher, useNavigate, useNavigation, useSearchParams } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { FormField, FormMessage } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { useActionToast } from "~/components/use-action-toast";
import { Spinner } from "~/components/ui/spinner";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/domain/auth-schemas";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { showToast, type ToastInput } from "~/lib/toast";
import { getAuth } from "~/server/auth/auth.server";
import { isResetTokenValid } from "~/server/auth/reset-token.server";
import { getLogger } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";
import { readForm } from "~/server/read-form.server";
import type { Route } from "./+types/reset-password";

/**
 * A bad or expired link. Only our own text is shown, never an error description taken
 * from the URL: anyone can craft a link to this page, and a message of their choosing on the
 * site's own page is a phishing aid.
 */
const linkError = (): ToastInput => ({
  title: T.resetLinkErrorTitle,
  description: T.resetLinkErrorFallback,
  variant: "destructive",
});

/** The two checks, in order, with their titles and texts (docs/product.md, "Accounts and signing in"). */
function passwordProblem(password: string, confirm: string): ToastInput | null {
  if (password !== confirm)
    return { title: T.passwordMismatchTitle, description: T.passwordMismatch, variant: "destructive" };
  if (password.length < PASSWORD_MIN)
    return { title: T.passwordTooShortTitle, description: T.passwordTooShort, variant: "destructive" };
  if (password.length > PASSWORD_MAX)
    return { title: T.passwordTooShortTitle, description: T.passwordTooLong, variant: "destructive" };
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = String(form.get("token") ?? "");
  if (form.get("intent") === "verify") {
    try {
      return { verified: await isResetTokenValid(token), toast: null };
    } catch (error) {
      getLogger().error({ err: error }, "reset link verification failed");
      return data(
        {
          verified: false,
          toast: { title: T.errorTitle, description: T.resetVerifyError, variant: "destructive" as const },
        },
        { status: 500 },
      );
    }
  }
  const password = String(form.get("password") ?? "");
  const problem = passwordProblem(password, String(form.get("confirm") ?? ""));
  if (problem) return data({ verified: true, toast: problem }, { status: 400 });
  try {
    // Resetting also ends every session of the user (revokeSessionsOnPasswordReset).
    await getAuth().api.resetPassword({ body: { newPassword: password, token } });
  } catch (error) {
    if (error instanceof APIError && error.body?.code === "INVALID_TOKEN") {
      return redirectWithToast("/forgot-password", linkError());
    }
    getLogger().error({ err: error }, "password reset failed");
    return data(
      {
        verified: true,
        toast: { title: T.errorTitle, description: T.updatePasswordFailed, variant: "destructive" as const },
      },
      { status: 500 },
    );
  }
  return redirectWithToast("/login", {
    title: "Password updated",
    description: "Your password was changed. Log in with your new password.",
    variant: "success",
  });
}

/**
 * First verify the link (the spinner), then show the form; a bad link goes to /forgot-password.
 * Answers the link's token and whether the server accepted it.
 */
function useVerifiedResetLink() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const verify = useFetcher<typeof action>();
  const started = useRef(false);
  const token = searchParams.get("token") ?? "";
  const linkHasError = searchParams.has("error_description") || searchParams.has("error");

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (linkHasError) {
      showToast(linkError());
      navigate("/forgot-password", { replace: true });
    } else if (!token) {
      showToast({ title: T.invalidResetLinkTitle, description: T.invalidResetLink, variant: "destructive" });
      navigate("/forgot-password", { replace: true });
    } else {
      void verify.submit({ intent: "verify", token }, { method: "post" });
    }
  }, [linkHasError, navigate, token, verify]);

  useEffect(() => {
    if (verify.state !== "idle" || !verify.data) return;
    if (verify.data.toast) {
      showToast(verify.data.toast);
      navigate("/forgot-password", { replace: true });
    } else if (!verify.data.verified) {
      showToast(linkError());
      navigate("/forgot-password", { replace: true });
    }
  }, [verify.state, verify.data, navigate]);

  return { token, verified: verify.data?.verified === true };
}

function VerifyingLink() {
  return (
    <AuthCard title="Reset your password">
      <div className="flex flex-col items-center gap-3 py-6 text-muted-foreground" aria-live="polite">
        <Spinner className="size-8 text-primary" aria-label="Verifying your reset link" />
        <p>Verifying your reset link…</p>
      </div>
      <noscript>
        <p className="text-sm">Resetting a password needs JavaScript. Please enable it and open the link again.</p>
      </noscript>
    </AuthCard>
  );
}

/** The new password twice, checked in the browser as the server checks it. */
function NewPasswordForm({ token, message }: { token: string; message: string | undefined }) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  return (
    <AuthCard
      title="Choose a new password"
      description="Enter your new password twice. It must be at least 6 characters long."
    >
      <Form
        method="post"
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          const form = new FormData(event.currentTarget);
          const problem = passwordProblem(String(form.get("password") ?? ""), String(form.get("confirm") ?? ""));
          if (problem) {
            event.preventDefault();
            showToast(problem);
          }
        }}
      >
        <input type="hidden" name="token" value={token} />
        <FormMessage>{message}</FormMessage>
        <FormField
          id="password"
          name="password"
          type="password"
          label="New password"
          autoComplete="new-password"
          required
        />
        <FormField
          id="confirm"
          name="confirm"
          type="password"
          label="Confirm new password"
          autoComplete="new-password"
          required
        />
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner aria-label="Saving" /> : null}
          Update password
        </Button>
      </Form>
    </AuthCard>
  );
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { token, verified } = useVerifiedResetLink();
  useActionToast(actionData);
  if (!verified) return <VerifyingLink />;
  return <NewPasswordForm token={token} message={actionData?.toast?.description} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Reset password"),
  { name: "description", content: "Choose a new password for your account." },
  { name: "referrer", content: "no-referrer" },
];
