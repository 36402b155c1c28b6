import { ArrowLeft, UserRound } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { TESTER_DEFAULT_DAYS, TESTER_MAX_DAYS } from "~/domain/admin";
import { formatMoney, type AdminUserView } from "~/domain/admin-user";
import type { ActionResult } from "~/domain/action-result";
import { formatDate } from "~/domain/format-date";
import { AuditTable } from "./admin-audit";
import { AdminUserLicenses } from "./admin-user-licenses";
import { FieldErrors } from "../form-field";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { useActionToast } from "../use-action-toast";

const dateTime = (iso: string) => `${formatDate(iso)}, ${iso.slice(11, 16)} UTC`;

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

/** A user's admin page: account facts, licenses with support actions, payments, subscriptions, audit entries. */
export function AdminUserPage({ user, now }: { user: AdminUserView; now: string }) {
  return (
    <div className="flex flex-col gap-8">
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
              <dt className="text-xs text-muted-foreground">Last sign-in</dt>
              <dd data-testid="last-sign-in">{user.last_sign_in_at ? dateTime(user.last_sign_in_at) : "Never"}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Role</dt>
              <dd>{user.role === "admin" ? "Administrator" : "User"}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>

      <Section title="Licenses" id="user-licenses">
        <AddTester userId={user.id} />
        <AdminUserLicenses licenses={user.licenses} now={new Date(now)} />
      </Section>

      <Section title="Payments" id="user-payments">
        {user.payments.length === 0 ? (
          <p className="text-muted-foreground">No payments.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full min-w-[42rem] text-left text-sm">
              <caption className="sr-only">The user&apos;s payments, newest first</caption>
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Billed
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Kind
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    License
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Transaction
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Invoice
                  </th>
                </tr>
              </thead>
              <tbody>
                {user.payments.map((payment) => (
                  <tr key={payment.id} className="border-t" data-testid="admin-payment">
                    <td className="whitespace-nowrap px-3 py-2">{formatDate(payment.billed_at)}</td>
                    <td className="px-3 py-2 capitalize">{payment.kind}</td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {formatMoney(payment.amount_cents, payment.currency)}
                    </td>
                    <td className="px-3 py-2 font-mono text-xs">
                      <a href={`#license-${payment.license_id}`} className="underline underline-offset-2">
                        {payment.license_short_id}
                      </a>
                    </td>
                    <td className="break-all px-3 py-2 font-mono text-xs">{payment.id}</td>
                    <td className="px-3 py-2">
                      {payment.amount_cents > 0 ? (
                        <a
                          href={`/admin/users/${user.id}/invoices/${encodeURIComponent(payment.id)}`}
                          className="whitespace-nowrap underline underline-offset-2"
                          download
                        >
                          Download
                        </a>
                      ) : (
                        <span className="text-muted-foreground">None (nothing charged)</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
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

      <Section title="Audit log" id="user-audit">
        {user.audit.length === 0 ? (
          <p className="text-muted-foreground">Nothing recorded about this user.</p>
        ) : (
          <AuditTable entries={user.audit} caption="Audit entries about this user, newest first" />
        )}
        <Link to={`/admin?tab=audit&target=${user.id}`} className="self-start text-sm underline underline-offset-2">
          Open in the audit log
        </Link>
      </Section>
    </div>
  );
}

export function BackToUsers() {
  return (
    <Button asChild variant="ghost" size="sm" className="self-start">
      <Link to="/admin?tab=users">
        <ArrowLeft aria-hidden /> All users
      </Link>
    </Button>
  );
}
