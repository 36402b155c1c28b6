import { navItems, type NavItem } from "~/domain/navigation";
import { lazy, Suspense, useState, useRef } from "react";
import { Form, Link, NavLink } from "react-router";
import type { Role, SessionUser } from "~/domain/views";
import { cn } from "~/lib/utils";
import { Button, buttonVariants } from "./ui/button";
import { useHydrated } from "./use-hydrated";
import { BrandMark } from "./brand-mark";
import { LogOutIcon, MenuIcon } from "./icons";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground",
    isActive ? "text-foreground" : "text-muted-foreground",
  );

export function SiteNav({
  user,
  role,
  runsTeam = false,
  productName = "ForgeKit",
}: {
  user: SessionUser | null;
  role: Role;
  /** The user owns or manages a team: the nav links to /team. */
  runsTeam?: boolean;
  productName?: string;
}) {
  const items = navItems(Boolean(user), role, runsTeam);
  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md font-semibold tracking-tight"
          aria-label={`${productName} home`}
        >
          <BrandMark className="size-7" />
          <span className="text-lg">{productName}</span>
        </Link>
        <div className="hidden items-center gap-1 md:flex">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} className={linkClass} prefetch="intent">
              {item.label}
            </NavLink>
          ))}
          {user ? <LogOutButton /> : null}
        </div>
        <MobileMenu items={items} signedIn={Boolean(user)} productName={productName} />
      </nav>
    </header>
  );
}

function LogOutButton({ className }: { className?: string }) {
  return (
    <Form method="post" action="/logout" className={className}>
      <Button type="submit" variant="ghost" size="sm" className="w-full justify-start text-muted-foreground md:w-auto">
        <LogOutIcon className="size-4" />
        Log Out
      </Button>
    </Form>
  );
}

const MobileMenuDrawer = lazy(() => import("./mobile-menu-drawer"));

/**
 * Below 768 px the links sit in a bottom drawer (docs/product.md, "Navigation and layout"), loaded
 * when first opened. Before the scripts run (or without them) the Menu is the browser's own
 * disclosure, opening the same links under the bar (decision 0040).
 */
function MobileMenu({ items, signedIn, productName }: { items: NavItem[]; signedIn: boolean; productName: string }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const preload = () => void import("./mobile-menu-drawer");
  if (!hydrated) return <NativeMobileMenu items={items} signedIn={signedIn} />;
  return (
    <div className="md:hidden">
      <Button
        ref={menuButton}
        variant="outline"
        size="sm"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <MenuIcon className="size-4" />
        Menu
      </Button>
      {wanted ? (
        <Suspense fallback={null}>
          <MobileMenuDrawer
            items={items}
            open={open}
            onOpenChange={setOpen}
            productName={productName}
            logOut={signedIn ? <LogOutButton className="mt-1" /> : null}
            returnFocus={() => menuButton.current?.focus()}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The menu as a native disclosure: works before hydration and with JavaScript off. */
function NativeMobileMenu({ items, signedIn }: { items: NavItem[]; signedIn: boolean }) {
  return (
    <details className="md:hidden" data-testid="native-menu">
      <summary
        className={cn(
          buttonVariants({ variant: "outline", size: "sm" }),
          "cursor-pointer list-none [&::-webkit-details-marker]:hidden",
        )}
      >
        <MenuIcon className="size-4" />
        Menu
      </summary>
      <ul
        aria-label="Menu"
        className="absolute inset-x-0 top-16 flex flex-col gap-1 border-b border-border bg-background px-4 pt-2 pb-4 shadow-lg"
      >
        {items.map((item) => (
          <li key={item.to}>
            <a href={item.to} className="block rounded-md px-3 py-3 text-base font-medium hover:bg-accent">
              {item.label}
            </a>
          </li>
        ))}
        {signedIn ? (
          <li>
            <LogOutButton className="mt-1" />
          </li>
        ) : null}
      </ul>
    </details>
  );
}
