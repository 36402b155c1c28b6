import { pageTitle } from "~/lib/meta";
import { rateLimited } from "~/http/action-reply.server";
import { MailCheck } from "~/components/lucide-icons";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { FormError, FormField, FormMessage } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { useActionToast } from "~/components/use-action-toast";
import { Spinner } from "~/components/ui/spinner";
import { emailOnlySchema } from "~/domain/auth-schemas";
import { parseForm, useFormValidation } from "~/lib/form";
import { MINIMUM_ANSWER_MS, takeAtLeast } from "~/server/auth/even-timing.server";
import { hitRateLimit } from "~/server/auth/rate-limit.server";
import { sendConfirmation } from "~/server/auth/register-user.server";
import { readForm } from "~/http/read-form.server";
import { safeRedirect } from "~/server/auth/session.server";
import { withReturnTo } from "~/domain/return-to";
import type { Route } from "./+types/confirm-email";

export const RESEND_ANSWER =
  "If an unconfirmed account exists for that address, a new confirmation link is on its way.";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(emailOnlySchema, form);
  if (!parsed.success) return data({ fieldErrors: parsed.fieldErrors, sent: false, toast: null }, { status: 400 });
  const limit = await hitRateLimit([`resend:ip:${context.clientIp}`, `resend:email:${parsed.data.email}`]);
  if (limit.limited) {
    return rateLimited("Not sent", limit.retryAfter, { sent: false });
  }
  // Queued: the account is looked up after the answer, which is the same for every address.
  await takeAtLeast(MINIMUM_ANSWER_MS.resend, async () =>
    sendConfirmation(parsed.data.email, safeRedirect(form.get("redirectTo"))),
  );
  // Said on the page (RESEND_ANSWER beside the form), not as a toast too: a fact once.
  return { fieldErrors: null, sent: true, toast: null };
}

export default function ConfirmEmail({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const { errors, onSubmit } = useFormValidation(emailOnlySchema, actionData?.fieldErrors);
  useActionToast(actionData);
  const email = searchParams.get("email") ?? "";
  const returnTo = searchParams.get("redirectTo");
  return (
    <AuthCard
      title="Check your e-mail"
      description={
        <>
          We sent a confirmation link to{" "}
          {email ? (
            <strong className="text-foreground [overflow-wrap:anywhere]">{email}</strong>
          ) : (
            "your e-mail address"
          )}
          . Follow it and log in with your password to activate your account; that brings you back{" "}
          {returnTo && returnTo !== "/" ? "to where you were going" : "to the site"}.
        </>
      }
    >
      <div className="flex justify-center py-2 text-primary">
        <MailCheck aria-hidden className="size-12" />
      </div>
      <Button asChild>
        <Link to={withReturnTo("/login", returnTo)}>Back to log in</Link>
      </Button>
      <div className="border-t pt-5">
        <h2 className="mb-3 text-sm font-medium">Didn&apos;t get it? Check your spam folder, or send it again.</h2>
        <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
          {returnTo ? <input type="hidden" name="redirectTo" value={returnTo} /> : null}
          <FormError errors={errors} answer={actionData} />
          {actionData?.sent ? <FormMessage tone="info">{RESEND_ANSWER}</FormMessage> : null}
          <FormField
            id="email"
            name="email"
            type="email"
            label="E-mail"
            defaultValue={email}
            autoComplete="email"
            errors={errors.email}
          />
          <Button type="submit" variant="secondary" disabled={submitting}>
            {submitting ? <Spinner aria-label="Sending" /> : null}
            Resend confirmation e-mail
          </Button>
        </Form>
      </div>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Confirm your e-mail"),
  { name: "description", content: "Confirm your e-mail address to activate your account." },
];
