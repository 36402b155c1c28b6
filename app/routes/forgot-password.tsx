import { pageTitle } from "~/lib/meta";
import { failure, rateLimited } from "~/http/action-reply.server";
import { MailCheck } from "~/components/lucide-icons";
import { data, Form, Link, useNavigation } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { FormError, FormField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { useActionToast } from "~/components/use-action-toast";
import { Spinner } from "~/components/ui/spinner";
import { emailOnlySchema } from "~/domain/auth-schemas";
import { AUTH_TEXTS as T } from "~/domain/auth-texts";
import { parseForm, useFormValidation } from "~/lib/form";
import { getAuth } from "~/server/auth/auth.server";
import { MINIMUM_ANSWER_MS, takeAtLeast } from "~/server/auth/even-timing.server";
import { hitRateLimit } from "~/server/auth/rate-limit.server";
import { getLogger } from "~/server/logger.server";
import { readForm } from "~/http/read-form.server";
import type { Route } from "./+types/forgot-password";

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(emailOnlySchema, await readForm(request));
  if (!parsed.success) return data({ fieldErrors: parsed.fieldErrors, sentTo: null, toast: null }, { status: 400 });
  const { email } = parsed.data;
  const limit = await hitRateLimit([`forgot:ip:${context.clientIp}`, `forgot:email:${email}`]);
  if (limit.limited) {
    return rateLimited(T.errorTitle, limit.retryAfter, { sentTo: null });
  }
  try {
    // Answers the same, in the same time, whether or not an account exists (the e-mail is queued).
    await takeAtLeast(MINIMUM_ANSWER_MS.forgot, () => getAuth().api.requestPasswordReset({ body: { email } }));
  } catch (error) {
    getLogger().error({ err: error }, "password reset request failed");
    return failure(500, { title: T.errorTitle, description: T.resetEmailFailed }, { sentTo: null });
  }
  return { fieldErrors: null, sentTo: email, toast: null };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const { errors, onSubmit } = useFormValidation(emailOnlySchema, actionData?.fieldErrors);
  useActionToast(actionData);

  if (actionData?.sentTo) {
    return (
      <AuthCard title="Check your e-mail">
        <div className="flex justify-center py-2 text-primary">
          <MailCheck aria-hidden className="size-12" />
        </div>
        <p role="status" className="text-muted-foreground">
          If an account exists for <strong className="text-foreground">{actionData.sentTo}</strong>, we sent it a link
          to reset your password. The link expires in 24 hours.
        </p>
        <Button asChild variant="secondary">
          <Link to="/login">Back to log in</Link>
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your account's e-mail address and we'll send you a link to choose a new password."
      footer={
        <Link to="/login" className="text-primary underline underline-offset-4">
          Back to log in
        </Link>
      }
    >
      <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <FormError errors={errors} answer={actionData} />
        <FormField
          id="email"
          name="email"
          type="email"
          label="E-mail"
          autoComplete="email"
          required
          errors={errors.email}
        />
        <Button type="submit" disabled={submitting}>
          {submitting ? <Spinner aria-label="Sending" /> : null}
          Send reset link
        </Button>
      </Form>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Forgot password"),
  { name: "description", content: "Request a link to reset your password." },
];
