import { pageTitle } from "~/lib/meta";
import { data, Form, useNavigation } from "react-router";
import { FormError, FormField, FormMessage } from "~/components/form-field";
import { ReminderEmailsForm } from "~/components/reminder-emails-form";
import { Button } from "~/components/ui/button";
import { useActionToast } from "~/components/use-action-toast";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { profileSchema } from "~/domain/auth-schemas";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { parseForm, useFormValidation } from "~/lib/form";
import { requireUser } from "~/http/session-guards.server";
import { emailChangeProblem, emailChanges, getProfile, updateProfile } from "~/server/auth/update-profile.server";
import { EMAIL_CHANGE_TEXTS as E } from "~/domain/email-change-texts";
import { accountAction, accountOverview } from "~/server/auth/account-actions.server";
import { AccountSections } from "~/components/profile/account-sections";
import { BillingDetailsSection } from "~/components/profile/billing-details-section";
import { getBillingDetails } from "~/server/billing/billing-details.server";
import { getLogger } from "~/server/logger.server";
import { getReminderEmails } from "~/server/mail/reminder-preference.server";
import { readForm } from "~/http/read-form.server";
import { accountAnswer } from "~/http/account-answer.server";
import type { Route } from "./+types/profile";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request);
  // The same session may get this page again from memory for a minute, unless the user, profile,
  // sessions, connected accounts or two-factor change first (decision 0028).
  context.reuseAnswerUntil?.(new Date(Date.now() + 60_000));
  // Four independent reads, side by side rather than one after the other.
  const [profile, reminderEmails, billingDetails, account] = await Promise.all([
    getProfile(user.id),
    getReminderEmails(user.id),
    getBillingDetails(user.id),
    accountOverview(request, user),
  ]);
  return { profile, reminderEmails, billingDetails, account };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  // Two-factor, password, sessions, deletion: the account sections' own actions (by intent).
  const form = await readForm(request);
  const account = await accountAction(form, request, context.clientIp, user);
  if (account) return accountAnswer(account);
  const parsed = parseForm(profileSchema, form);
  if (!parsed.success) {
    return data(
      {
        fieldErrors: parsed.fieldErrors,
        pendingEmail: null,
        toast: { title: T.profileFailed, variant: "destructive" as const },
      },
      { status: 400 },
    );
  }
  if (emailChanges(user.email, parsed.data.email)) {
    // A session alone does not change the address: the current password (or a fresh sign-in) too.
    const problem = await emailChangeProblem(request, user.id, passwordOf(form));
    if (problem) {
      return data(
        {
          fieldErrors: { currentPassword: [problem] },
          pendingEmail: null,
          toast: { title: T.profileFailed, description: problem, variant: "destructive" as const },
        },
        { status: 403 },
      );
    }
  }
  try {
    const { emailChangePending } = await updateProfile(user.id, user.email, parsed.data, request);
    return {
      fieldErrors: null,
      pendingEmail: emailChangePending ? parsed.data.email : null,
      // A pending address change is said beside the form (where to confirm it, how to log in until then):
      // the toast says only that the profile was saved, so the fact is said once.
      toast: { title: T.profileUpdated, variant: "success" as const },
    };
  } catch (error) {
    getLogger().error({ err: error }, "profile update failed");
    return data(
      {
        fieldErrors: { form: [T.profileFailed] },
        pendingEmail: null,
        toast: { title: T.profileFailed, variant: "destructive" as const },
      },
      { status: 500 },
    );
  }
}

function passwordOf(form: FormData): string | null {
  const value = form.get("currentPassword");
  return typeof value === "string" && value.length > 0 && value.length <= 128 ? value : null;
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const profileAnswer = actionData && "intent" in actionData ? null : actionData;
  const { errors, onSubmit } = useFormValidation(profileSchema, profileAnswer?.fieldErrors);
  useActionToast(actionData);
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-12">
      <h1 className="mb-6 text-3xl font-semibold tracking-tight">Profile</h1>
      <Card>
        <CardHeader>
          <CardTitle>Your details</CardTitle>
          <CardDescription>Your name and company appear on your licenses and receipts.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            <FormError errors={errors} answer={profileAnswer} />
            {profileAnswer?.pendingEmail ? (
              <FormMessage tone="info">
                Confirm your new address from the link we sent to {profileAnswer.pendingEmail}. Until then you log in
                with {profile.email}.
              </FormMessage>
            ) : null}
            <FormField
              id="full_name"
              name="full_name"
              label="Full name"
              defaultValue={profile.full_name}
              autoComplete="name"
              required
              errors={errors.full_name}
            />
            <FormField
              id="company_name"
              name="company_name"
              label={
                <>
                  Company name <span className="font-normal text-muted-foreground">(optional)</span>
                </>
              }
              defaultValue={profile.company_name}
              autoComplete="organization"
              errors={errors.company_name}
            />
            <FormField
              id="email"
              name="email"
              type="email"
              label="E-mail"
              defaultValue={profile.email}
              autoComplete="email"
              required
              hint="A new address takes effect once you confirm it from the link we send to it."
              errors={errors.email}
            />
            <EmailChangeProof
              hasPassword={loaderData.account.hasPassword}
              errors={
                profileAnswer?.fieldErrors && "currentPassword" in profileAnswer.fieldErrors
                  ? profileAnswer.fieldErrors.currentPassword
                  : undefined
              }
            />
            <div>
              <Button type="submit" disabled={submitting}>
                {submitting ? <Spinner aria-label="Saving" /> : null}
                Save changes
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
      <BillingDetailsSection details={loaderData.billingDetails} />
      <ReminderEmailsForm enabled={loaderData.reminderEmails} />
      <AccountSections account={loaderData.account} />
    </div>
  );
}

/** What proves the owner asks for a new address (decision 0059): the current password, or a fresh sign-in. */
function EmailChangeProof({ hasPassword, errors }: { hasPassword: boolean; errors: string[] | undefined }) {
  if (!hasPassword) return <p className="text-sm text-muted-foreground">{E.freshSignInRequired}</p>;
  return (
    <FormField
      id="profile-current-password"
      name="currentPassword"
      type="password"
      label="Current password"
      autoComplete="current-password"
      hint="Needed only to change the e-mail address."
      errors={errors}
    />
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Profile"),
  { name: "description", content: "Edit your name, company and e-mail address." },
];
