import { Link } from "react-router";
import { cn } from "~/lib/utils";
import { BrandMark } from "./brand-mark";

const groups = [
  {
    title: "Product",
    links: [
      { to: "/download", label: "Download" },
      { to: "/pricing", label: "Pricing" },
      { to: "/release-notes", label: "Release notes" },
    ],
  },
  {
    title: "Support",
    links: [
      { to: "/contact", label: "Contact Us" },
      { to: "/refund-policy", label: "Refund Policy" },
    ],
  },
  {
    title: "Legal",
    links: [
      { to: "/privacy-policy", label: "Privacy Policy" },
      { to: "/terms-of-service", label: "Terms of Service" },
    ],
  },
];

/** Signing in without the menu (decision 0040); a signed-in person has the account pages in the bar. */
const ACCOUNT_GROUP = {
  title: "Account",
  links: [
    { to: "/login", label: "Log in" },
    { to: "/register", label: "Create an account" },
  ],
};

export function SiteFooter({
  productName = "ForgeKit",
  signedIn = false,
}: {
  productName?: string;
  signedIn?: boolean;
}) {
  return (
    <footer className="border-t border-border bg-card/40">
      {/* As many columns as groups: a signed-in person has no Account group, and no empty column in its place. */}
      <div
        className={cn(
          "mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-10 sm:px-6",
          signedIn ? "md:grid-cols-[1.5fr_repeat(3,1fr)]" : "md:grid-cols-[1.5fr_repeat(4,1fr)]",
        )}
      >
        <div className="col-span-2 flex flex-col gap-3 md:col-span-1">
          <Link to="/" className="flex min-h-6 w-fit items-center gap-2 rounded-md font-semibold">
            <BrandMark className="size-6" />
            {productName}
          </Link>
          <p className="max-w-xs text-sm text-muted-foreground">
            Automates repetitive programming work on Windows: load components, define changes, preview, generate.
          </p>
        </div>
        {(signedIn ? groups : [...groups, ACCOUNT_GROUP]).map((group) => (
          <nav key={group.title} aria-label={group.title} className="flex flex-col gap-2 text-sm">
            <h2 className="font-medium text-foreground">{group.title}</h2>
            <ul className="flex flex-col gap-1">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="inline-block py-1 text-muted-foreground hover:text-foreground hover:underline"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-border">
        <p className="mx-auto max-w-6xl px-4 py-4 text-xs text-muted-foreground sm:px-6">
          © {new Date().getUTCFullYear()} {productName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
