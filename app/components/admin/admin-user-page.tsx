import { ArrowLeft, UserRound } from "~/components/lucide-icons";
import { Link, useFetcher } from "react-router";
import { TESTER_MAX_DAYS } from "~/domain/admin";
import { TESTER_DEFAULT_DAYS } from "~/domain/plans";
import type { AdminUserView } from "~/domain/admin-user";
import type { ActionResult } from "~/domain/action-result";
import { formatDateTime } from "~/domain/format-date";
import { AuditTable } from "./admin-audit";
import { AdminSupportAccount } from "./admin-support-account";
import { AdminRefundPayments } from "./admin-refund-dialog";
import { AdminUserLicenses } from "./admin-user-licenses";
import { AdminUserPayments } from "./admin-user-payments";
import { AdminUserTimeline } from "./admin-user-timeline";
import { FieldErrors } from "../form-field";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { useActionToast } from "../use-action-toast";

const dateTime = formatDateTime;

function AddTester({ userId }: { userId: string }) {
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useActionToast(result);
  const errors = result?.fieldErrors?.days;
  return (
    // noValidate: the server's message says what is allowed (1 to 365), not the browser's.
    <fetcher.Form
      method="post"
      noValidate
      className="flex flex-wrap items-start gap-3 rounded-lg border bg-background/40 p-4"
    >
      <input type="hidden" name="intent" value="add-tester" />
      <input type="hidden" name="userId" value={userId} />
      <div className="flex flex-col gap-2">
        <Label htmlFor="tester-days">Tester license days</Label>
        <Input
          id="tester-days"
          name="days"
          type="number"
          min={1}
          max={TESTER_MAX_DAYS}
          defaultValue={TESTER_DEFAULT_DAYS}
          className="w-28"
          aria-invalid={errors ? true : undefined}
          aria-describedby={errors ? "tester-days-error" : "tester-days-hint"}
        />
        {errors ? (
          <FieldErrors id="tester-days-error" errors={errors} />
        ) : (
          <p id="tester-days-hint" className="text-xs text-muted-foreground">
            1 to {TESTER_MAX_DAYS}
          </p>
        )}
      </div>
      <Button type="submit" className="sm:mt-7" disabled={fetcher.state !== "idle"}>
        Add tester license
      </Button>
    </fetcher.Form>
  );
}

function Section({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Who the user is: name, e-mail, company, sign-up, confirmation, last sign-in and role. */
function UserFactsCard({ user }: { user: AdminUserView }) {
  return (
    <Card data-testid="admin-user">
      <CardHeader>
        <CardTitle>
          <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
            <UserRound aria-hidden className="size-6 text-primary" /> {user.full_name || user.email}
          </h1>
        </CardTitle>
        <CardDescription className="break-all">
          {user.email}
          {user.company_name ? ` · ${user.company_name}` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-xs text-muted-foreground">Signed up</dt>
            <dd>{dateTime(user.created_at)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">E-mail confirmed</dt>
            <dd>{user.email_verified ? "Yes" : "No"}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Last login</dt>
            <dd data-testid="last-sign-in">{user.last_sign_in_at ? dateTime(user.last_sign_in_at) : "Never"}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Role</dt>
            <dd>{user.role === "admin" ? "Administrator" : "User"}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

/** A user's admin page: account facts, licenses with support actions, payments, subscriptions, audit entries. */
export function AdminUserPage({ user, now }: { user: AdminUserView; now: string }) {
  return (
    <div className="flex flex-col gap-8">
      <UserFactsCard user={user} />

      <Section title="Account support" id="user-account-support">
        <AdminSupportAccount user={user} />
      </Section>

      <Section title="Licenses" id="user-licenses">
        <AddTester userId={user.id} />
        <AdminUserLicenses licenses={user.licenses} now={new Date(now)} />
      </Section>

      <AdminRefundPayments payments={user.payments} licenses={user.licenses} />

      <Section title="Payments" id="user-payments">
        <AdminUserPayments userId={user.id} payments={user.payments} />
      </Section>

      <Section title="Subscriptions" id="user-subscriptions">
        {user.subscription_ids.length === 0 ? (
          <p className="text-muted-foreground">No subscriptions.</p>
        ) : (
          <ul className="flex flex-col gap-1 font-mono text-sm" aria-label="Subscription ids">
            {user.subscription_ids.map((id) => (
              <li key={id} className="break-all">
                {id}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Timeline" id="user-timeline">
        <AdminUserTimeline userId={user.id} timeline={user.timeline} />
      </Section>

      <Section title="Audit log" id="user-audit">
        {user.audit.length === 0 ? (
          <p className="text-muted-foreground">Nothing recorded about this user.</p>
        ) : (
          <AuditTable entries={user.audit} caption="Audit entries about this user, newest first" />
        )}
        <Link to={`/admin/audit?target=${user.id}`} className="self-start text-sm underline underline-offset-2">
          Open in the audit log
        </Link>
      </Section>
    </div>
  );
}

export function BackToUsers() {
  return (
    <Button asChild variant="ghost" size="sm" className="self-start">
      <Link to="/admin/users">
        <ArrowLeft aria-hidden /> All users
      </Link>
    </Button>
  );
}
