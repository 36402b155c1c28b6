import { Form, Link } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { FormMessage } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { EMAIL_CHANGE_TEXTS as T } from "~/domain/email-change-texts";

/** What the page of a change-of-address link shows (decision 0059). */
export type EmailChangeView =
  | { kind: "open"; link: "confirm" | "undo"; token: string; oldEmail: string; newEmail: string; error: string | null }
  | { kind: "closed"; link: "confirm" | "undo" | null; message: string; supportEmail: string }
  | { kind: "confirmed"; newEmail: string }
  | { kind: "undone"; oldEmail: string };

/**
 * A change-of-address link's page: what following it will do and one button (a plain form, so it
 * works before scripts and a mail scanner's visit changes nothing), the outcome, or why the link no
 * longer works and what to do instead.
 */
export function EmailChangeCard({ view }: { view: EmailChangeView }) {
  switch (view.kind) {
    case "open": {
      const confirm = view.link === "confirm";
      return (
        <AuthCard
          title={confirm ? T.confirmTitle : T.undoTitle}
          description={
            confirm ? T.confirmQuestion(view.oldEmail, view.newEmail) : T.undoQuestion(view.oldEmail, view.newEmail)
          }
        >
          <FormMessage>{view.error}</FormMessage>
          <Form method="post" className="flex flex-col gap-3">
            <input type="hidden" name="token" value={view.token} />
            <Button type="submit" variant={confirm ? "default" : "destructive"}>
              {confirm ? T.confirmButton : T.undoButton}
            </Button>
          </Form>
        </AuthCard>
      );
    }
    case "closed":
      return (
        <AuthCard title="This link no longer works" description={view.message}>
          <p className="text-sm text-muted-foreground" data-testid="next-step">
            {view.link === "undo" ? T.undoLate(view.supportEmail) : T.confirmAgain}
          </p>
          <Button asChild variant="outline">
            {view.link === "undo" ? (
              <Link to="/forgot-password">Reset your password</Link>
            ) : (
              <Link to="/profile">Go to your profile</Link>
            )}
          </Button>
        </AuthCard>
      );
    case "confirmed":
      return (
        <AuthCard title="E-mail address changed" description={T.confirmed(view.newEmail)}>
          <p className="text-sm text-muted-foreground">{T.confirmedNext}</p>
          <Button asChild>
            <Link to="/profile">Go to your profile</Link>
          </Button>
        </AuthCard>
      );
    case "undone":
      return (
        <AuthCard title="Change undone" description={T.undone(view.oldEmail)}>
          <p className="text-sm text-muted-foreground">{T.undoneNext}</p>
          <div className="flex flex-wrap gap-3">
            <Button asChild>
              <Link to="/login">Log in</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={`/forgot-password?email=${encodeURIComponent(view.oldEmail)}`}>Choose a new password</Link>
            </Button>
          </div>
        </AuthCard>
      );
  }
}
