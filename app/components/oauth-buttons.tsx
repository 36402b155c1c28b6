import { Form } from "react-router";
import { Button } from "~/components/ui/button";

const NAMES = { github: "GitHub", google: "Google" } as const;

/** "Sign in with GitHub / Google": only the providers the site has a client id and secret for. */
export function OAuthButtons({
  providers,
  redirectTo,
}: {
  providers: readonly ("github" | "google")[];
  redirectTo: string;
}) {
  if (providers.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3 text-xs text-muted-foreground">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      {providers.map((provider) => (
        <Form key={provider} method="post" action="/login/oauth" reloadDocument>
          <input type="hidden" name="provider" value={provider} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Button type="submit" variant="secondary" className="w-full">
            Log in with {NAMES[provider]}
          </Button>
        </Form>
      ))}
    </div>
  );
}
