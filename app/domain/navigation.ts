/** One link of the site's navigation. */
export interface NavItem {
  to: string;
  label: string;
}

/**
 * The navigation (docs/product.md, "Navigation and layout"): everyone, then signed-in or signed-out
 * links (Team for a team's owner or manager), then Manage for admins.
 */
export function navItems(signedIn: boolean, role: "user" | "admin", runsTeam = false): NavItem[] {
  const items: NavItem[] = [
    { to: "/download", label: "Download" },
    { to: "/pricing", label: "Pricing" },
    { to: "/contact", label: "Contact Us" },
  ];
  if (signedIn) {
    items.push(
      { to: "/licenses", label: "Licenses" },
      ...(runsTeam ? [{ to: "/team", label: "Team" }] : []),
      { to: "/billing", label: "Billing" },
      { to: "/profile", label: "Profile" },
    );
    if (role === "admin") items.push({ to: "/admin", label: "Manage" });
  } else {
    items.push({ to: "/login", label: "Login" }, { to: "/register", label: "Register" });
  }
  return items;
}
