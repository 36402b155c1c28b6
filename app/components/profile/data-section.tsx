import { FormError, FormField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { deleteAccountSchema } from "~/domain/account-schemas";
import type { SubscriptionToCancel } from "~/domain/account-views";
import { teamMembersKeepSeats } from "~/domain/account-texts";
import { formatDate } from "~/domain/format-date";
import { useAccountForm } from "./use-account-form";

/**
 * "Export my data" (a JSON download) and "Delete account" (password, or a fresh provider sign-in),
 * which lists the subscriptions it will cancel before the person confirms.
 */
export function DataSection({
  hasPassword,
  subscriptions,
}: {
  hasPassword: boolean;
  subscriptions: SubscriptionToCancel[];
}) {
  const { fetcher, answer, errors, onSubmit, busy } = useAccountForm("account-delete", deleteAccountSchema);
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
          <SubscriptionsToCancel subscriptions={subscriptions} />
          <p className="text-sm text-muted-foreground">
            Licenses and payments we must keep for accounting stay without your name or e-mail address; everything else
            is removed. This cannot be undone.
          </p>
          <input type="hidden" name="intent" value="account-delete" />
          <FormError errors={errors} answer={answer} />
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

/** The renewing subscriptions the deletion cancels (plan, short id, next renewal), or that there are none. */
function SubscriptionsToCancel({ subscriptions }: { subscriptions: SubscriptionToCancel[] }) {
  if (subscriptions.length === 0) {
    return (
      <p data-testid="subscriptions-to-cancel" className="text-sm">
        You have no renewing subscriptions: nothing needs cancelling.
      </p>
    );
  }
  return (
    <div data-testid="subscriptions-to-cancel" className="text-sm">
      <p>
        {subscriptions.length === 1
          ? "Deleting your account first cancels this subscription; it will not renew and you will not be charged again:"
          : `Deleting your account first cancels these ${subscriptions.length} subscriptions; they will not renew and you will not be charged again:`}
      </p>
      <ul className="mt-2 flex list-disc flex-col gap-1 pl-5">
        {subscriptions.map((s) => (
          <li key={s.shortId}>
            <span className="font-medium">{s.planName}</span> <span className="font-mono">{s.shortId}</span>
            <span className="text-muted-foreground"> (would renew on {formatDate(s.renewsOn)})</span>
            {s.teamMembers !== undefined ? (
              <span className="text-muted-foreground">: {teamMembersKeepSeats(s.teamMembers, s.renewsOn)}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
