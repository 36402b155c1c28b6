import { Search, UserRound } from "lucide-react";
import { Form, Link, useFetcher } from "react-router";
import { TESTER_DEFAULT_DAYS } from "~/domain/admin";
import { formatDate } from "~/domain/format-date";
import { getLicenseDisplayStatus, licenseTypeLabel } from "~/domain/license-status";
import type { ActionResult } from "~/domain/action-result";
import type { LicenseView, UserSearchResult } from "~/domain/views";
import { FormMessage } from "./form-field";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "./ui/alert-dialog";
import { Badge } from "./ui/badge";
import { Button } from "./ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./ui/card";
import { Input } from "./ui/input";
import { Label } from "./ui/label";
import { useActionToast } from "./use-action-toast";

type Read<T> = { value: T; error: null } | { value: null; error: string };
interface SelectedUser {
  user: UserSearchResult;
  licenses: LicenseView[];
}

/** Users tab: search by name or e-mail, then one user's licenses with revoke and add-tester. */
export function AdminUsers({
  search,
  selected,
  now,
}: {
  search: { term: string; results: UserSearchResult[] | null; error: string | null } | null;
  selected: Read<SelectedUser | null> | null;
  now: string;
}) {
  return (
    <div className="flex flex-col gap-6">
      <Form method="get" className="flex flex-col gap-2 sm:flex-row sm:items-end" role="search">
        <input type="hidden" name="tab" value="users" />
        <div className="flex flex-1 flex-col gap-2">
          <Label htmlFor="admin-search">Search users</Label>
          <Input
            id="admin-search"
            name="q"
            type="search"
            defaultValue={search?.term ?? ""}
            placeholder="Name, account e-mail or license e-mail"
          />
        </div>
        <Button type="submit">
          <Search aria-hidden /> Search
        </Button>
      </Form>
      {search?.error ? <FormMessage>{search.error}</FormMessage> : null}
      {search?.results ? (
        search.results.length === 0 ? (
          <p className="text-muted-foreground [overflow-wrap:anywhere]">No users match “{search.term}”.</p>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Search results">
            {search.results.map((user) => (
              <li
                key={user.id}
                data-testid="admin-user-result"
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border bg-card px-4 py-3"
              >
                <div className="min-w-0">
                  <p className="font-medium">{user.full_name || "(no name)"}</p>
                  <p className="break-all text-sm text-muted-foreground">
                    {user.email}
                    {user.company_name ? ` · ${user.company_name}` : ""}
                  </p>
                </div>
                <Button asChild variant="outline" size="sm">
                  <Link
                    to={`?tab=users&q=${encodeURIComponent(search.term)}&user=${user.id}`}
                    preventScrollReset
                    aria-label={`View licenses of ${user.full_name || user.email}`}
                  >
                    View licenses
                  </Link>
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {selected ? (
        selected.error ? (
          <FormMessage>{selected.error}</FormMessage>
        ) : selected.value ? (
          <UserLicenses selected={selected.value} now={new Date(now)} />
        ) : (
          <FormMessage>User not found.</FormMessage>
        )
      ) : null}
    </div>
  );
}

function UserLicenses({ selected, now }: { selected: SelectedUser; now: Date }) {
  const { user, licenses } = selected;
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : null);
  const busy = fetcher.state !== "idle";
  return (
    <Card data-testid="admin-user">
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2 text-xl">
            <UserRound aria-hidden className="size-5 text-primary" /> {user.full_name || user.email}
          </h2>
        </CardTitle>
        <CardDescription className="break-all">
          {user.email}
          {user.company_name ? ` · ${user.company_name}` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <fetcher.Form method="post" className="flex flex-wrap items-end gap-3 rounded-lg border bg-background/40 p-4">
          <input type="hidden" name="intent" value="add-tester" />
          <input type="hidden" name="userId" value={user.id} />
          <div className="flex flex-col gap-2">
            <Label htmlFor="tester-days">Tester license days</Label>
            <Input
              id="tester-days"
              name="days"
              type="number"
              min={1}
              defaultValue={TESTER_DEFAULT_DAYS}
              className="w-28"
            />
          </div>
          <Button type="submit" disabled={busy}>
            Add tester license
          </Button>
        </fetcher.Form>
        {licenses.length === 0 ? (
          <p className="text-muted-foreground">This user has no licenses.</p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Licenses">
            {licenses.map((license) => {
              const status = getLicenseDisplayStatus(license, now);
              return (
                <li
                  key={license.id}
                  data-testid="admin-license"
                  data-license-status={license.status}
                  className="flex flex-col gap-2 rounded-lg border p-4 text-sm"
                >
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium">{licenseTypeLabel(license.license_type)} license</span>
                    <span className="flex items-center gap-2">
                      <Badge
                        variant={
                          license.status === "active"
                            ? "success"
                            : license.status === "revoked"
                              ? "destructive"
                              : "secondary"
                        }
                      >
                        {license.status.replace("_", " ")}
                      </Badge>
                      <span className="text-muted-foreground">{status.label}</span>
                    </span>
                  </div>
                  <p className="text-muted-foreground">
                    {license.email} · {formatDate(license.start_date)} – {formatDate(license.end_date)}
                  </p>
                  <code className="break-all rounded-md border bg-background/60 px-2 py-1 font-mono text-xs">
                    {license.license_key}
                  </code>
                  {license.status === "active" ? (
                    <AlertDialog>
                      <AlertDialogTrigger asChild>
                        <Button type="button" variant="destructive" size="sm" className="self-start" disabled={busy}>
                          Revoke
                        </Button>
                      </AlertDialogTrigger>
                      <AlertDialogContent>
                        <AlertDialogHeader>
                          <AlertDialogTitle>Revoke this license?</AlertDialogTitle>
                          <AlertDialogDescription>
                            The {licenseTypeLabel(license.license_type)} license of {license.email} stops working at
                            once. This cannot be undone.
                          </AlertDialogDescription>
                        </AlertDialogHeader>
                        <AlertDialogFooter>
                          <AlertDialogCancel>Keep it</AlertDialogCancel>
                          <AlertDialogAction
                            onClick={() =>
                              fetcher.submit({ intent: "revoke", licenseId: license.id }, { method: "post" })
                            }
                          >
                            Revoke license
                          </AlertDialogAction>
                        </AlertDialogFooter>
                      </AlertDialogContent>
                    </AlertDialog>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
