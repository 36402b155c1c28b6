import { ChevronDown } from "lucide-react";
import { groupLicenses } from "~/domain/license-card";
import type { LicenseView } from "~/domain/views";
import { LicenseCard } from "./license-card";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "../ui/collapsible";

/**
 * The licenses page's cards: active ones (and one waiting for its refund) first; expired, refunded
 * and revoked ones under a collapsed "Inactive licenses (N)".
 */
export function LicenseList({ licenses, now }: { licenses: LicenseView[]; now: Date }) {
  const { active, inactive } = groupLicenses(licenses, now);
  return (
    <>
      {active.length > 0 ? (
        <ul className="mt-8 flex flex-col gap-5" data-testid="active-licenses">
          {active.map((license) => (
            <li key={license.id}>
              <LicenseCard license={license} now={now} />
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
          <CollapsibleTrigger className="group flex w-full items-center justify-between gap-2 rounded-xl border bg-card px-5 py-3 text-left font-medium">
            Inactive licenses ({inactive.length})
            <ChevronDown aria-hidden className="size-4 transition-transform group-data-[state=open]:rotate-180" />
          </CollapsibleTrigger>
          <CollapsibleContent>
            <ul className="mt-5 flex flex-col gap-5">
              {inactive.map((license) => (
                <li key={license.id}>
                  <LicenseCard license={license} now={now} />
                </li>
              ))}
            </ul>
          </CollapsibleContent>
        </Collapsible>
      ) : null}
    </>
  );
}
