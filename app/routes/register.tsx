import { pageTitle } from "~/lib/meta";
import { failure, rateLimited } from "~/http/action-reply.server";
import { useState } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { FieldErrors, FormError, FormField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { useActionToast } from "~/components/use-action-toast";
import { Checkbox } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import { registerSchema } from "~/domain/auth-schemas";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { parseForm, useFormValidation } from "~/lib/form";
import { MINIMUM_ANSWER_MS, takeAtLeast } from "~/server/auth/even-timing.server";
import { hitRateLimit } from "~/server/auth/rate-limit.server";
import { registerUser } from "~/server/auth/register-user.server";
import { safeRedirect } from "~/server/auth/session.server";
import { requireAnonymous } from "~/http/session-guards.server";
import { withReturnTo } from "~/domain/return-to";
import { chosenPlanSummary } from "~/domain/team-pricing";
import { invitationTokenOf, joinTeamTitle } from "~/domain/team-invitations";
import { invitationByToken } from "~/server/teams/team-accept.server";
import { TRIAL_DAYS } from "~/domain/plans";
import { getLogger } from "~/server/logger.server";
import { redirectWithToast } from "~/http/toast.server";
import { readForm } from "~/http/read-form.server";
import { commonPasswordProblem } from "~/server/auth/common-passwords.server";
import type { Route } from "./+types/register";

/**
 * Reached from a team invitation (its "Create an account" link returns to the accept page): the
 * team's name and the invited address, while the invitation is open (decision 0057). The token is the
 * link's secret, so this says no more than the accept page does.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const token = invitationTokenOf(safeRedirect(new URL(request.url).searchParams.get("redirectTo")));
  const invitation = token ? await invitationByToken(token) : null;
  return {
    invitation: invitation?.state === "open" ? { teamName: invitation.teamName, email: invitation.email } : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request);
  const form = await readForm(request);
  const parsed = parseForm(registerSchema, form);
  // Where the visitor was going (e.g. a plan's checkout): the confirmation link leads there.
  const returnTo = safeRedirect(form.get("redirectTo"));
  if (!parsed.success) return data({ fieldErrors: parsed.fieldErrors, toast: null }, { status: 400 });
  const common = commonPasswordProblem(parsed.data.password);
  if (common) return data({ fieldErrors: { password: [common] }, toast: null }, { status: 400 });

  const limit = await hitRateLimit([`sign-up:ip:${context.clientIp}`, `sign-up:email:${parsed.data.email}`]);
  if (limit.limited) {
    return rateLimited(T.registerFailed, limit.retryAfter);
  }

  try {
    // The same answer whether or not the address already had an account.
    await takeAtLeast(MINIMUM_ANSWER_MS.register, () => registerUser(parsed.data, { callbackURL: returnTo }));
  } catch (error) {
    getLogger().error({ err: error }, "registration failed");
    return failure(500, {
      title: T.errorTitle,
      description: T.registerUnexpected,
      fieldErrors: { form: [T.registerFailed] },
    });
  }
  return redirectWithToast(withReturnTo(`/confirm-email?email=${encodeURIComponent(parsed.data.email)}`, returnTo), {
    title: T.registerSuccess,
    variant: "success",
  });
}

/** The terms box: the server checks it; in the browser it also enables the button. */
function TermsCheckbox({
  agreed,
  onAgreedChange,
  errors,
}: {
  agreed: boolean;
  onAgreedChange: (agreed: boolean) => void;
  errors: string[] | undefined;
}) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-start gap-3">
        <Checkbox
          id="terms"
          name="terms"
          value="on"
          // Uncontrolled, so a tick made before the scripts ran survives hydration; read once they do.
          ref={(input) => {
            if (input?.checked && !agreed) onAgreedChange(true);
          }}
          onCheckedChange={(value) => onAgreedChange(value === true)}
          aria-invalid={errors ? true : undefined}
          aria-describedby={errors ? "terms-error" : undefined}
          className="mt-0.5"
        />
        <Label htmlFor="terms" className="inline leading-snug font-normal">
          I agree to the{" "}
          <Link to="/terms-of-service" className="text-primary underline underline-offset-4">
            Terms of Service
          </Link>{" "}
          and{" "}
          <Link to="/privacy-policy" className="text-primary underline underline-offset-4">
            Privacy Policy
          </Link>
          .
        </Label>
      </div>
      <FieldErrors id="terms-error" errors={errors} />
    </div>
  );
}

export default function Register({ actionData, loaderData }: Route.ComponentProps) {
  const invitation = loaderData?.invitation ?? null;
  const navigation = useNavigation();
  const returnTo = useSearchParams()[0].get("redirectTo");
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/register");
  const { errors, onSubmit } = useFormValidation(registerSchema, actionData?.fieldErrors);
  const [agreed, setAgreed] = useState(false);
  // Before JavaScript runs the button stays enabled and the server checks the box.
  const hydrated = useHydrated();
  useActionToast(actionData);

  return (
    <AuthCard
      {...cardWords(invitation)}
      footer={
        <>
          Already have an account?{" "}
          <Link to={withReturnTo("/login", returnTo)} className="text-primary underline underline-offset-4">
            Log in
          </Link>
        </>
      }
    >
      <ChosenPlan returnTo={returnTo} />
      <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {returnTo ? <input type="hidden" name="redirectTo" value={returnTo} /> : null}
        <FormError errors={errors} answer={actionData} />
        <FormField
          id="full_name"
          name="full_name"
          label="Full name"
          autoComplete="name"
          required
          errors={errors.full_name}
        />
        <FormField
          id="email"
          name="email"
          type="email"
          label="E-mail"
          autoComplete="email"
          required
          defaultValue={invitation?.email}
          errors={errors.email}
        />
        <FormField
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          required
          hint="At least 6 characters."
          errors={errors.password}
        />
        <FormField
          id="company_name"
          name="company_name"
          label={
            <>
              Company name <span className="font-normal text-muted-foreground">(optional)</span>
            </>
          }
          autoComplete="organization"
          errors={errors.company_name}
        />
        <TermsCheckbox agreed={agreed} onAgreedChange={setAgreed} errors={errors.terms} />
        <Button
          type="submit"
          disabled={submitting || (hydrated && !agreed)}
          aria-describedby={hydrated && !agreed ? "create-hint" : undefined}
        >
          {submitting ? <Spinner aria-label="Creating account" /> : null}
          Create account
        </Button>
        <CreateHint shown={hydrated && !agreed} />
      </Form>
    </AuthCard>
  );
}

/** The card's heading and line: "Join <team>" when reached from a team invitation (decision 0057). */
function cardWords(invitation: { teamName: string } | null) {
  return invitation
    ? {
        title: joinTeamTitle(invitation.teamName),
        description:
          "Create your account with the invited e-mail address, then accept the invitation to take your seat.",
      }
    : { title: "Create your account", description: "Register to buy licenses and manage them yourself." };
}

/** Why "Create account" is disabled while it is (decision 0040). */
const TERMS_HINT = "Tick the box to agree to the terms, then create your account.";

function CreateHint({ shown }: { shown: boolean }) {
  if (!shown) return null;
  return (
    <p id="create-hint" data-testid="create-hint" className="-mt-2 text-center text-sm text-muted-foreground">
      {TERMS_HINT}
    </p>
  );
}

/** The plan chosen on the pricing page, kept through registration (its checkout opens after sign-in). */
function ChosenPlan({ returnTo }: { returnTo: string | null }) {
  const chosen = chosenPlanSummary(returnTo);
  if (!chosen) return null;
  return (
    <div data-testid="chosen-plan" className="mb-4 rounded-md border border-primary/40 bg-primary/10 px-3 py-2 text-sm">
      <p>
        Your plan: <strong>{chosen.name}</strong>, {chosen.price}.
      </p>
      <p className="text-muted-foreground">
        {chosen.trial
          ? `New customers start with a ${TRIAL_DAYS}-day free trial. `
          : "A team plan has no free trial: it is charged at checkout. "}
        After confirming your e-mail you go straight to its checkout.{" "}
        <Link to="/pricing" className="text-primary underline underline-offset-4">
          Change plan
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Register"),
  { name: "description", content: "Create an account to buy and manage your licenses." },
];
