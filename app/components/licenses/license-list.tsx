import { ChevronDown, AlertTriangle } from "~/components/lucide-icons";
import { Suspense } from "react";
import { orderByAttention, rowStartsOpen, type AttentionItem } from "~/domain/license-attention";
import { groupLicenses } from "~/domain/license-card";
import { licenseTypeLabel } from "~/domain/plans";
import type { LicenseView } from "~/domain/views";
import { LicenseCard } from "./license-card";
import { CHEVRON_TURNS, Collapsible, CollapsibleContent, CollapsibleTrigger } from "../ui/collapsible";

/**
 * The licenses page's rows (decision 0040): what needs the customer first (payment failed, trial
 * ending, ending without renewal; a refund in progress asks nothing, decision 0057;
 * app/domain/license-attention.ts) under a summary linking to each, then the other active licenses;
 * expired, refunded and revoked ones under a collapsed "Inactive licenses (N)".
 */
export function LicenseList({ licenses, now }: { licenses: LicenseView[]; now: Date }) {
  const { active, inactive } = groupLicenses(licenses, now);
  const { attention, rest } = orderByAttention(active, now);
  const count = licenses.length;
  return (
    <>
      <AttentionSummary items={attention} />
      {active.length > 0 ? (
        <ul className="mt-8 flex flex-col gap-3" data-testid="active-licenses">
          {/* One list, so a card that moves up (a refund just requested) keeps its state and its toast. */}
          {[...attention, ...rest.map((license) => ({ license, kind: null }))].map(({ license, kind }) => (
            <li key={license.id} data-attention={kind ?? undefined}>
              <Suspense>
                <LicenseCard license={license} now={now} open={rowStartsOpen(kind, count)} />
              </Suspense>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-8 rounded-xl border border-dashed p-6 text-center text-muted-foreground">
          No active licenses. Buy a plan to get a new one, or extend an expired license below.
        </p>
      )}
      {inactive.length > 0 ? (
        <Collapsible className="mt-8" data-testid="inactive-licenses">
          <CollapsibleTrigger className="flex w-full items-center justify-between gap-2 rounded-xl border bg-card px-5 py-3 text-left font-medium">
            Inactive licenses ({inactive.length})
            <ChevronDown aria-hidden className={CHEVRON_TURNS} />
          </CollapsibleTrigger>
          <CollapsibleContent>
            <ul className="mt-3 flex flex-col gap-3">
              {inactive.map((license) => (
                <li key={license.id}>
                  <Suspense>
                    <LicenseCard license={license} now={now} open={rowStartsOpen(null, count)} />
                  </Suspense>
                </li>
              ))}
            </ul>
          </CollapsibleContent>
        </Collapsible>
      ) : null}
    </>
  );
}

/** "Needs your attention": one line per license that needs the customer, linking to its row. */
function AttentionSummary({ items }: { items: AttentionItem<LicenseView>[] }) {
  if (items.length === 0) return null;
  return (
    <section
      aria-labelledby="attention-title"
      data-testid="attention-summary"
      className="mt-6 rounded-xl border border-warning/40 bg-warning/10 px-5 py-4"
    >
      <h2 id="attention-title" className="flex items-center gap-2 font-semibold">
        <AlertTriangle aria-hidden className="size-4 text-warning" /> Needs your attention ({items.length})
      </h2>
      <ul className="mt-2 flex flex-col gap-2 text-sm">
        {items.map(({ license, kind, text }) => (
          <li key={license.id} data-attention={kind}>
            <a href={`#license-${license.id}`} className="font-medium text-foreground underline underline-offset-4">
              {licenseTypeLabel(license.license_type)} license {license.short_id}
            </a>
            : {text}
          </li>
        ))}
      </ul>
    </section>
  );
}
