import { useEffect, useRef } from "react";
import { FormError, FormField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { changePasswordSchema } from "~/domain/account-schemas";
import { useAccountForm } from "./use-account-form";

/** Change the password: the current one is required; other sessions end and an e-mail tells the owner. */
export function PasswordSection() {
  const { fetcher, answer, errors, onSubmit, busy } = useAccountForm("password-change", changePasswordSchema);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer?.ok) form.current?.reset();
  }, [answer]);
  return (
    <Card id="password">
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl font-semibold">Password</h2>
        </CardTitle>
        <CardDescription>Changing it signs you out everywhere else, and we tell you by e-mail.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form
          ref={form}
          method="post"
          action="/profile"
          noValidate
          onSubmit={onSubmit}
          className="flex flex-col gap-4"
        >
          <input type="hidden" name="intent" value="password-change" />
          <FormError errors={errors} answer={answer} />
          <FormField
            id="currentPassword"
            name="currentPassword"
            type="password"
            label="Current password"
            autoComplete="current-password"
            required
            errors={errors.currentPassword}
          />
          <FormField
            id="newPassword"
            name="newPassword"
            type="password"
            label="New password"
            autoComplete="new-password"
            required
            errors={errors.newPassword}
          />
          <FormField
            id="confirmPassword"
            name="confirm"
            type="password"
            label="Confirm new password"
            autoComplete="new-password"
            required
            errors={errors.confirm}
          />
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? <Spinner aria-label="Changing password" /> : null}
              Change password
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
