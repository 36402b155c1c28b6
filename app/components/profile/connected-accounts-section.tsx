import { Form, useSearchParams } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { ACCOUNT_TEXTS as A, PROVIDER_EMAIL_UNVERIFIED } from "~/domain/account-texts";
import type { ConnectedAccount } from "~/domain/account-views";

const NAMES = { github: "GitHub", google: "Google" } as const;

/**
 * GitHub / Google connected to the account: an account that already exists is connected here,
 * after its owner signed in to it, never by an OAuth sign-in with the same e-mail address.
 */
export function ConnectedAccountsSection({
  providers,
  connected,
}: {
  providers: ("github" | "google")[];
  connected: ConnectedAccount[];
}) {
  const [searchParams] = useSearchParams();
  const linked = new Set(connected.map((c) => c.provider));
  // A connection the provider refused or we refused comes back as /profile?error=<code>.
  const error = searchParams.get("error");
  return (
    <Card id="connected-accounts">
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl font-semibold">Connected accounts</h2>
        </CardTitle>
        <CardDescription>Log in with GitHub or Google instead of your password.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {searchParams.get("linked") ? <p className="text-sm text-success">The account was connected.</p> : null}
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error === PROVIDER_EMAIL_UNVERIFIED ? A.oauthEmailUnverified : A.oauthConnectFailed}
          </p>
        ) : null}
        <ul className="flex flex-col gap-3">
          {connected.map((c) => (
            <li key={c.provider} className="text-sm">
              {c.name}: connected
            </li>
          ))}
        </ul>
        {providers
          .filter((p) => !linked.has(p))
          .map((provider) => (
            <Form key={provider} method="post" action="/login/oauth" reloadDocument>
              <input type="hidden" name="provider" value={provider} />
              <Button type="submit" variant="outline">
                Connect {NAMES[provider]}
              </Button>
            </Form>
          ))}
      </CardContent>
    </Card>
  );
}
