import { Form, Link, useNavigation } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { FormField, FormMessage } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { CONFIRMATION_TEXTS as C } from "~/domain/email-change-texts";

/** What the confirmation link's page shows (decision 0059). */
export type ConfirmationView =
  | {
      kind: "open";
      token: string;
      email: string;
      redirectTo: string;
      error: { form: "sign-in" | "set-password"; message: string } | null;
    }
  | { kind: "confirmed"; email: string }
  | { kind: "closed"; message: string };

/**
 * The confirmation link's page: log in with the password chosen at registration, or choose a new
 * one; an address confirmed already, or a bad or expired link, says what to do next. Plain forms,
 * so it works before scripts.
 */
export function ConfirmationCard({ view }: { view: ConfirmationView }) {
  if (view.kind === "confirmed") {
    return (
      <AuthCard title={C.confirmedTitle} description={C.alreadyConfirmed}>
        <Button asChild>
          <Link to="/login">Log in</Link>
        </Button>
        <Link to="/forgot-password" className="text-sm text-primary underline underline-offset-4">
          Forgot your password?
        </Link>
      </AuthCard>
    );
  }
  if (view.kind === "closed") {
    return (
      <AuthCard title={C.title} description={view.message}>
        <Button asChild>
          <Link to="/confirm-email">Send a new confirmation link</Link>
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={C.title} description={C.description(view.email)}>
      <SignInForm view={view} />
      <div className="border-t pt-5">
        <h2 className="mb-1 text-sm font-medium">{C.setPasswordHeading}</h2>
        <p className="mb-3 text-sm text-muted-foreground">{C.setPasswordHint}</p>
        <SetPasswordForm view={view} />
      </div>
    </AuthCard>
  );
}

type OpenView = Extract<ConfirmationView, { kind: "open" }>;

function Hidden({ view, intent }: { view: OpenView; intent: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="token" value={view.token} />
      <input type="hidden" name="redirectTo" value={view.redirectTo} />
    </>
  );
}

function SignInForm({ view }: { view: OpenView }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "sign-in";
  return (
    <Form method="post" className="flex flex-col gap-4">
      <Hidden view={view} intent="sign-in" />
      <FormMessage>{view.error?.form === "sign-in" ? view.error.message : null}</FormMessage>
      <FormField
        id="confirm-password"
        name="password"
        type="password"
        label="Password"
        autoComplete="current-password"
        required
      />
      <Button type="submit" disabled={busy}>
        {busy ? <Spinner aria-label="Logging in" /> : null}
        {C.signInButton}
      </Button>
    </Form>
  );
}

function SetPasswordForm({ view }: { view: OpenView }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "set-password";
  return (
    <Form method="post" className="flex flex-col gap-4">
      <Hidden view={view} intent="set-password" />
      <FormMessage>{view.error?.form === "set-password" ? view.error.message : null}</FormMessage>
      <FormField
        id="new-password"
        name="password"
        type="password"
        label="New password"
        autoComplete="new-password"
        required
      />
      <FormField
        id="new-password-confirm"
        name="confirm"
        type="password"
        label="Confirm new password"
        autoComplete="new-password"
        required
      />
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? <Spinner aria-label="Saving" /> : null}
        {C.setPasswordButton}
      </Button>
    </Form>
  );
}
