import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { ADMIN_NAV } from "~/domain/admin-nav";
import { cn } from "~/lib/utils";

/**
 * The admin area's navigation, on every page under /admin: each page is a link of its own, and the
 * one shown (or the section it belongs to, e.g. Users on a user's page) carries aria-current="page".
 */
export function AdminNav() {
  return (
    <nav aria-label="Administration" className="border-b">
      <ul className="flex flex-wrap gap-x-1 gap-y-1 pb-2">
        {ADMIN_NAV.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.to === "/admin"}
              prefetch="intent"
              className={({ isActive }) =>
                cn(
                  "inline-flex min-h-9 items-center rounded-md px-3 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground",
                  isActive && "bg-muted text-foreground",
                )
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** One admin page's frame below the navigation: its heading, an optional line about it, its content. */
export function AdminPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 pb-12 pt-6 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
      {intro ? <p className="mt-1 text-muted-foreground">{intro}</p> : null}
      <div className="mt-6 flex flex-col gap-6">{children}</div>
    </div>
  );
}
