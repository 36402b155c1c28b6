import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { revokeSessionSchema } from "~/domain/account-schemas";
import type { SessionView } from "~/domain/account-views";
import { formatDateTime } from "~/domain/format-date";
import { useAccountForm } from "./use-account-form";
import { z } from "zod";

const noFields = z.object({});

/** Signed-in sessions (browser, IP, last active) with "Sign out" each and "Log out everywhere else". */
export function SessionsSection({ sessions }: { sessions: SessionView[] }) {
  const others = useAccountForm("sessions-revoke-others", noFields);
  const hasOthers = sessions.some((s) => !s.current);
  return (
    <Card id="sessions">
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl font-semibold">Signed-in sessions</h2>
        </CardTitle>
        <CardDescription>Where your account is logged in. Log out any you do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex flex-col divide-y divide-border" aria-label="Sessions">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </ul>
        {hasOthers ? (
          <others.fetcher.Form method="post" action="/profile">
            <input type="hidden" name="intent" value="sessions-revoke-others" />
            <Button type="submit" variant="outline" disabled={others.busy}>
              Log out everywhere else
            </Button>
          </others.fetcher.Form>
        ) : null}
      </CardContent>
    </Card>
  );
}

function SessionRow({ session }: { session: SessionView }) {
  const { fetcher, busy } = useAccountForm("session-revoke", revokeSessionSchema, `session-revoke-${session.id}`);
  return (
    <li data-testid="session" className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
      <div className="flex flex-col">
        <span className="font-medium">
          {session.browser}
          {session.current ? <span className="ml-2 text-xs text-primary">(this browser)</span> : null}
        </span>
        <span className="text-muted-foreground">
          {session.ipAddress || "Unknown IP"} · Last active {formatDateTime(session.lastActive)}
        </span>
      </div>
      {session.current ? null : (
        <fetcher.Form method="post" action="/profile">
          <input type="hidden" name="intent" value="session-revoke" />
          <input type="hidden" name="sessionId" value={session.id} />
          <Button type="submit" size="sm" variant="outline" disabled={busy}>
            Log out
          </Button>
        </fetcher.Form>
      )}
    </li>
  );
}
