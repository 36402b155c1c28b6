import type * as React from "react";
import { Link } from "react-router";
import { useRootData } from "~/components/use-root-data";
import { licenseCoverage } from "~/domain/machine-texts";
import { DEFAULT_MACHINE_LIMITS } from "~/domain/machines";

/** What a legal text may name: the product, the support address and what one license covers. */
interface LegalContext {
  product: string;
  supportEmail: string;
  coverage: string;
}

export interface LegalSection {
  id: string;
  title: string;
  body: (ctx: LegalContext) => React.ReactNode;
}

const LEGAL_PAGES = [
  { to: "/terms-of-service", label: "Terms of Service" },
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/refund-policy", label: "Refund Policy" },
];

/** A legal text: title, last-updated date, table of contents, numbered sections, cross-links. */
export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: (ctx: LegalContext) => React.ReactNode;
  sections: LegalSection[];
}) {
  const config = useRootData()?.publicConfig;
  const ctx = {
    product: config?.productName ?? "ForgeKit",
    supportEmail: config?.supportEmail ?? "",
    coverage: licenseCoverage(config?.machinesPerPlan ?? DEFAULT_MACHINE_LIMITS),
  };
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <header>
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          Last updated <time dateTime={updated}>{updated}</time>
        </p>
        <div className="mt-6 flex flex-col gap-4 leading-relaxed text-muted-foreground">{intro(ctx)}</div>
      </header>
      <nav aria-label="Contents" className="mt-8 rounded-xl border bg-card p-5">
        <h2 className="text-sm font-medium">Contents</h2>
        <ol className="mt-3 grid list-decimal gap-1.5 pl-5 text-sm sm:grid-cols-2">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-primary underline underline-offset-4">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="mt-10 flex flex-col gap-10">
        {sections.map((section, i) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-24">
            <h2 id={`${section.id}-title`} className="text-xl font-semibold">
              {i + 1}. {section.title}
            </h2>
            <div className="legal-body mt-3 flex flex-col gap-3 leading-relaxed text-muted-foreground [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_li]:ml-5 [&_li]:list-disc [&_strong]:text-foreground [&_ul]:flex [&_ul]:flex-col [&_ul]:gap-1.5">
              {section.body(ctx)}
            </div>
          </section>
        ))}
      </div>
      <footer className="mt-12 flex flex-wrap gap-x-6 gap-y-2 border-t pt-6 text-sm">
        {LEGAL_PAGES.filter((p) => p.label !== title).map((page) => (
          <Link key={page.to} to={page.to} className="text-primary underline underline-offset-4">
            {page.label}
          </Link>
        ))}
        <Link to="/contact" className="text-primary underline underline-offset-4">
          Contact Us
        </Link>
      </footer>
    </article>
  );
}
