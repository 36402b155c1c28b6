import { Search } from "~/components/lucide-icons";
import { Form, Link } from "react-router";
import { matchReason, type NearMatch } from "~/domain/admin-search";
import { formatDate } from "~/domain/format-date";
import type { UserSearchResult } from "~/domain/views";
import { AdminPager } from "./admin-pager";
import { MatchedLicenseState } from "./admin-license-support";
import { FormMessage } from "../form-field";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Label } from "../ui/label";

export interface AdminUserList {
  term: string;
  page: number;
  value: { users: UserSearchResult[]; page: number; hasNext: boolean } | null;
  error: string | null;
  /** Accounts close to a term that found nobody. */
  near?: NearMatch[];
}

/** "Did you mean": the accounts closest to a term that found nobody, each opening its page. */
function NearMatches({ near }: { near: NearMatch[] }) {
  return (
    <nav aria-label="Did you mean" className="flex flex-col gap-2 text-sm">
      <p className="font-medium">Did you mean</p>
      <ul className="flex flex-col gap-1">
        {near.map((user) => (
          <li key={user.id} data-testid="admin-near-match" className="[overflow-wrap:anywhere]">
            <Link to={`/admin/users/${user.id}`} className="text-primary underline underline-offset-4">
              {user.email}
            </Link>{" "}
            <span className="text-muted-foreground">· {user.full_name || "(no name)"}</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * Users page (/admin/users): every user newest first, or the users a term finds (name, e-mail, an earlier e-mail,
 * license e-mail, any part of a short id, key, Paddle customer, subscription or transaction id) with
 * why each matched, 50 a page; each opens the user's own page.
 */
export function AdminUsers({ list }: { list: AdminUserList }) {
  const { term, page, value, error, near = [] } = list;
  const href = (to: number) =>
    `/admin/users?${new URLSearchParams({ ...(term ? { q: term } : {}), page: String(to) })}`;
  return (
    <div className="flex flex-col gap-6">
      <Form method="get" action="/admin/users" className="flex flex-col gap-2 sm:flex-row sm:items-end" role="search">
        <div className="flex flex-1 flex-col gap-2">
          <Label htmlFor="admin-search">Search users</Label>
          <Input
            id="admin-search"
            name="q"
            type="search"
            defaultValue={term}
            placeholder="Name, e-mail (also an earlier one), part of a short id, license key, Paddle id"
          />
        </div>
        <Button type="submit">
          <Search aria-hidden /> Search
        </Button>
      </Form>
      {error ? <FormMessage>{error}</FormMessage> : null}
      {value ? (
        <>
          <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]" aria-live="polite">
            {term ? `Users matching “${term}”, by name` : "All users, newest first"}
            {page > 1 ? ` · page ${page}` : ""}
          </p>
          {value.users.length === 0 ? (
            <>
              <p className="text-muted-foreground [overflow-wrap:anywhere]">
                {term ? `No users match “${term}”.` : page > 1 ? "No more users." : "No users yet."}
              </p>
              {near.length > 0 ? <NearMatches near={near} /> : null}
            </>
          ) : (
            <ul className="flex flex-col gap-2" aria-label={term ? "Search results" : "Users"}>
              {value.users.map((user) => (
                <li
                  key={user.id}
                  data-testid="admin-user-result"
                  className="flex flex-wrap items-center justify-between gap-3 rounded-lg border bg-card px-4 py-3"
                >
                  <div className="min-w-0">
                    <p className="font-medium break-all">{user.full_name || "(no name)"}</p>
                    <p className="break-all text-sm text-muted-foreground">
                      {user.email}
                      {user.company_name ? ` · ${user.company_name}` : ""} · signed up {formatDate(user.created_at)}
                    </p>
                    {user.match ? (
                      <p className="break-all text-xs text-muted-foreground" data-testid="admin-user-match">
                        Matched by {matchReason(user.match)}
                      </p>
                    ) : null}
                    {user.license ? <MatchedLicenseState license={user.license} /> : null}
                  </div>
                  <Button asChild variant="outline" size="sm">
                    <Link to={`/admin/users/${user.id}`} aria-label={`Open ${user.full_name || user.email}`}>
                      Open
                    </Link>
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <AdminPager page={page} hasNext={value.hasNext} href={href} label="Pages of users" />
        </>
      ) : null}
    </div>
  );
}
