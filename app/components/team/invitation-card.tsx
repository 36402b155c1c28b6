import { Form, Link } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { formatDate } from "~/domain/format-date";
import { withReturnTo } from "~/domain/return-to";

/** What the accept page knows of a link and of who opened it. */
export type InvitationPageView =
  | { kind: "unknown"; message: string }
  | { kind: "closed"; teamName: string; message: string }
  | { kind: "signed-out"; teamName: string; email: string; expiresAt: string; back: string }
  | { kind: "wrong-address"; teamName: string; email: string; signedInAs: string; message: string }
  | { kind: "unconfirmed"; teamName: string; email: string; message: string }
  | { kind: "open"; teamName: string; email: string; expiresAt: string; token: string; error: string | null };

/**
 * The invitation's accept page (decision 0047): accept when signed in with the invited, confirmed address;
 * otherwise what to do (sign in or register with it), or why the link no longer works.
 */
export function InvitationCard({ view }: { view: InvitationPageView }) {
  switch (view.kind) {
    case "unknown":
      return (
        <AuthCard title="Invitation not found" description={view.message}>
          <p className="text-sm text-muted-foreground">
            Check that the whole link was copied, or ask the team for a new one.
          </p>
        </AuthCard>
      );
    case "closed":
      return (
        <AuthCard title={`Invitation to ${view.teamName}`} description={view.message}>
          <Button asChild variant="outline">
            <Link to="/licenses">My licenses</Link>
          </Button>
        </AuthCard>
      );
    case "signed-out":
      return (
        <AuthCard
          title={`Join ${view.teamName}`}
          description={`You are invited to take a seat in ${view.teamName}. The link is valid until ${formatDate(view.expiresAt)}.`}
        >
          <p className="text-sm" data-testid="invited-address">
            Log in or create an account with <strong>{view.email}</strong> to accept.
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            <Button asChild>
              <Link to={withReturnTo("/login", view.back)}>Log in</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={withReturnTo("/register", view.back)}>Create an account</Link>
            </Button>
          </div>
        </AuthCard>
      );
    case "wrong-address":
      return (
        <AuthCard title={`Join ${view.teamName}`} description={view.message}>
          <p className="text-sm text-muted-foreground" data-testid="signed-in-as">
            You are signed in as {view.signedInAs}. Log out, then open the invitation link again and sign in or register
            with {view.email}.
          </p>
          <Form method="post" action="/logout" className="mt-4">
            <Button type="submit" variant="outline">
              Log out
            </Button>
          </Form>
        </AuthCard>
      );
    case "unconfirmed":
      return (
        <AuthCard title={`Join ${view.teamName}`} description={view.message}>
          <p className="text-sm text-muted-foreground">
            We sent a confirmation link to {view.email} when you registered. Open it, then come back to this page.
          </p>
        </AuthCard>
      );
    case "open":
      return <AcceptForm view={view} />;
  }
}

function AcceptForm({ view }: { view: Extract<InvitationPageView, { kind: "open" }> }) {
  return (
    <AuthCard
      title={`Join ${view.teamName}`}
      description={`Accept to get a seat license provided by ${view.teamName}, on your licenses page. The link is valid until ${formatDate(view.expiresAt)}.`}
    >
      <Form method="post" className="grid gap-3">
        <input type="hidden" name="token" value={view.token} />
        <p className="text-sm">
          Invited address: <strong>{view.email}</strong>
        </p>
        {view.error ? (
          <p role="alert" className="text-sm text-destructive">
            {view.error}
          </p>
        ) : null}
        <Button type="submit">Accept the invitation</Button>
      </Form>
    </AuthCard>
  );
}
