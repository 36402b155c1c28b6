import { pageTitle } from "~/lib/meta";
import { APIError } from "better-auth/api";
import { useEffect, useRef, useState } from "react";
import { data, Form, useFetcher, useNavigate, useNavigation, useSearchParams } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { FormField, FormMessage } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { newPasswordProblem, type NewPasswordProblem } from "~/domain/auth-schemas";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { showToast, type ToastInput } from "~/lib/toast";
import { getAuth } from "~/server/auth/auth.server";
import { isResetTokenValid } from "~/server/auth/reset-token.server";
import { getLogger } from "~/server/logger.server";
import { redirectWithToast } from "~/http/toast.server";
import { readForm } from "~/http/read-form.server";
import { commonPasswordProblem } from "~/server/auth/common-passwords.server";
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

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = String(form.get("token") ?? "");
  if (form.get("intent") === "verify") {
    try {
      return { verified: await isResetTokenValid(token), toast: null, problem: null, failed: null };
    } catch (error) {
      getLogger().error({ err: error }, "reset link verification failed");
      return data(
        {
          verified: false,
          toast: { title: T.errorTitle, description: T.resetVerifyError, variant: "destructive" as const },
          problem: null,
          failed: null,
        },
        { status: 500 },
      );
    }
  }
  const password = String(form.get("password") ?? "");
  // Said beside its field, not as a toast (decision 0057); a common password too.
  const problem: NewPasswordProblem | null =
    newPasswordProblem(password, String(form.get("confirm") ?? "")) ??
    (commonPasswordProblem(password)
      ? { field: "password", title: T.passwordCommonTitle, message: T.passwordCommon }
      : null);
  if (problem) return data({ verified: true, toast: null, problem, failed: null }, { status: 400 });
  try {
    // Resetting also ends every session of the user (revokeSessionsOnPasswordReset).
    await getAuth().api.resetPassword({ body: { newPassword: password, token } });
  } catch (error) {
    if (error instanceof APIError && error.body?.code === "INVALID_TOKEN") {
      return redirectWithToast("/forgot-password", linkError());
    }
    getLogger().error({ err: error }, "password reset failed");
    // The form stays as it was: the failure is said once, above it (not also as a toast).
    return data({ verified: true, toast: null, problem: null, failed: T.updatePasswordFailed }, { status: 500 });
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
      showToast(linkError(), { forPage: "/forgot-password" });
      navigate("/forgot-password", { replace: true });
    } else if (!token) {
      showToast(
        { title: T.invalidResetLinkTitle, description: T.invalidResetLink, variant: "destructive" },
        { forPage: "/forgot-password" },
      );
      navigate("/forgot-password", { replace: true });
    } else {
      void verify.submit({ intent: "verify", token }, { method: "post" });
    }
  }, [linkHasError, navigate, token, verify]);

  useEffect(() => {
    if (verify.state !== "idle" || !verify.data) return;
    if (verify.data.toast) {
      showToast(verify.data.toast, { forPage: "/forgot-password" });
      navigate("/forgot-password", { replace: true });
    } else if (!verify.data.verified) {
      showToast(linkError(), { forPage: "/forgot-password" });
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

/**
 * The new password twice, checked in the browser as the server checks it; a problem is said beside
 * the field it is about, with the product's title and text (decision 0057), and that field takes focus.
 */
function NewPasswordForm({ token, answer }: { token: string; answer: ResetAnswer | undefined }) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const [clientProblem, setClientProblem] = useState<NewPasswordProblem | null>(null);
  const [lastAnswer, setLastAnswer] = useState(answer);
  if (answer !== lastAnswer) {
    setLastAnswer(answer);
    setClientProblem(null);
  }
  const problem = clientProblem ?? answer?.problem ?? null;
  const errorsOf = (field: NewPasswordProblem["field"]) => (problem?.field === field ? [problem.message] : null);
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
          const found = newPasswordProblem(String(form.get("password") ?? ""), String(form.get("confirm") ?? ""));
          setClientProblem(found);
          if (found) {
            event.preventDefault();
            event.currentTarget.querySelector<HTMLInputElement>(`#${found.field}`)?.focus();
          }
        }}
      >
        <input type="hidden" name="token" value={token} />
        <FormMessage>{clientProblem ? undefined : (answer?.failed ?? undefined)}</FormMessage>
        <FormField
          id="password"
          name="password"
          type="password"
          label="New password"
          autoComplete="new-password"
          required
          errors={errorsOf("password")}
          errorTitle={problem?.title}
        />
        <FormField
          id="confirm"
          name="confirm"
          type="password"
          label="Confirm new password"
          autoComplete="new-password"
          required
          errors={errorsOf("confirm")}
          errorTitle={problem?.title}
        />
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner aria-label="Saving" /> : null}
          Update password
        </Button>
      </Form>
    </AuthCard>
  );
}

type ResetAnswer = { problem: NewPasswordProblem | null; failed: string | null };

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { token, verified } = useVerifiedResetLink();
  if (!verified) return <VerifyingLink />;
  return <NewPasswordForm token={token} answer={actionData} />;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Reset password"),
  { name: "description", content: "Choose a new password for your account." },
  { name: "referrer", content: "no-referrer" },
];
