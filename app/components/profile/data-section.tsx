import { FormField, FormMessage } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { deleteAccountSchema } from "~/domain/account-schemas";
import { useAccountForm } from "./use-account-form";

/** "Export my data" (a JSON download) and "Delete account" (password, or a fresh provider sign-in). */
export function DataSection({ hasPassword }: { hasPassword: boolean }) {
  const { fetcher, errors, onSubmit, busy } = useAccountForm("account-delete", deleteAccountSchema);
  return (
    <Card id="your-data">
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl font-semibold">Your data</h2>
        </CardTitle>
        <CardDescription>
          Download everything we hold about you, or delete your account (see our{" "}
          <a href="/privacy-policy" className="text-primary underline underline-offset-4">
            Privacy Policy
          </a>
          ).
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <div>
          <Button asChild variant="outline">
            <a href="/profile/export" download>
              Export my data
            </a>
          </Button>
        </div>
        <fetcher.Form method="post" action="/profile" noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <h3 className="font-semibold">Delete account</h3>
          <p className="text-sm text-muted-foreground">
            Active subscriptions are cancelled first. Licenses and payments we must keep for accounting stay without
            your name or e-mail address; everything else is removed. This cannot be undone.
          </p>
          <input type="hidden" name="intent" value="account-delete" />
          <FormMessage>{errors.form?.[0]}</FormMessage>
          {hasPassword ? (
            <FormField
              id="delete-password"
              name="password"
              type="password"
              label="Password"
              autoComplete="current-password"
              required
              errors={errors.password}
            />
          ) : (
            <p className="text-sm">
              Your account has no password: log out and log in again with your provider, then delete it within five
              minutes.
            </p>
          )}
          <FormField
            id="delete-confirm"
            name="confirm"
            label="Type DELETE to confirm"
            autoComplete="off"
            required
            errors={errors.confirm}
          />
          <div>
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? <Spinner aria-label="Deleting" /> : null}
              Delete my account
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
