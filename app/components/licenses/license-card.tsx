import { CalendarPlus, ChevronDown } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { canCopyKey, canExtendLicense, summarizeLicense, type LicenseSummary } from "~/domain/license-card";
import { licenseNextStep } from "~/domain/license-attention";
import { formatDate } from "~/domain/format-date";
import { cn } from "~/lib/utils";
import { hasSubscriptionSection, isRefundLocked, licenseTypeLabel } from "~/domain/license-status";
import type { LicenseView } from "~/domain/views";
import { LicenseKeyLine } from "./license-key-line";
import { LicenseMachines } from "./license-machines";
import { LicensePaymentProblem } from "./license-payment-problem";
import { OfflineDataSection, SubscriptionSection } from "./license-actions";
import { LicenseRefund } from "./license-refund";
import { TrialSection } from "./trial-section";
import { useLicenseAction } from "./use-license-action";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { CardContent } from "../ui/card";
import { CHEVRON_TURNS, Collapsible, CollapsibleTrigger } from "../ui/collapsible";

/**
 * One license as a compact row (issue 28): type, short id, badge, next date and amount; it opens
 * (a native <details>, so without JavaScript too) to the status line (app/domain/license-card.ts),
 * dates, the key, offline data, Extend, and apart from them the renewal and refund actions.
 * `notices` are shown first in the body (e.g. a payment problem); the rules for what a card
 * offers live in the domain modules.
 */
export function LicenseCard({
  license,
  now,
  notices,
  open = false,
}: {
  license: LicenseView;
  now: Date;
  notices?: ReactNode;
  /** Whether the row starts open (it needs the customer, or the page has only a few licenses). */
  open?: boolean;
}) {
  const summary = summarizeLicense(license, now);
  const locked = isRefundLocked(license);
  const revoked = summary.kind === "revoked";
  const working = summary.kind === "active" || summary.kind === "trial-active";
  // A team's seat: key, offline data, devices, file, and no billing; the owner's team subscription: billing, no key.
  const seat = license.team?.role === "seat";
  const teamSubscription = license.team?.role === "billing";
  const action = useLicenseAction();
  return (
    <Collapsible
      id={`license-${license.id}`}
      open={open}
      data-testid="license-card"
      data-status={summary.kind}
      data-short-id={license.short_id}
      className={cn("scroll-mt-20 rounded-xl border bg-card shadow-sm", revoked && "border-destructive/60")}
    >
      <LicenseRowSummary license={license} summary={summary} now={now} />
      <CardContent className="flex flex-col gap-4 pb-6 text-sm">
        <StatusLine summary={summary} />
        {notices}
        {license.team ? <TeamNote team={license.team} /> : null}
        {revoked ? (
          <p role="note" className="rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2">
            This license was revoked and no longer works. Contact support if you think this is a mistake.
          </p>
        ) : null}
        {seat ? null : <LicensePaymentProblem license={license} now={now} />}
        {seat ? null : <TrialSection license={license} now={now} action={action} />}
        <LicenseDates license={license} />
        {locked ? (
          <p role="note" className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2">
            {license.status === "refund_requested"
              ? "A refund was requested for this license. Its key and offline data are hidden while the refund is processed."
              : `This license was refunded${license.refund_amount != null ? ` ($${(license.refund_amount / 100).toFixed(2)})` : ""}. Its key and offline data are no longer available.`}
          </p>
        ) : teamSubscription ? null : (
          <>
            {license.license_key ? (
              <LicenseKeyLine
                licenseKey={license.license_key}
                copyable={canCopyKey(license, now)}
                fileHref={working ? `/licenses/${license.id}/file` : null}
              />
            ) : null}
            {license.is_trial || license.license_type === "trial" || revoked ? null : (
              <OfflineDataSection license={license} action={action} />
            )}
          </>
        )}
        {!seat && !teamSubscription && !locked && !revoked && canExtendLicense(license) ? (
          <div className="flex flex-wrap gap-2">
            <Button asChild size="sm">
              <Link to={`/extend-license?license=${encodeURIComponent(license.id)}`}>
                <CalendarPlus aria-hidden /> Extend
              </Link>
            </Button>
          </div>
        ) : null}
        {teamSubscription ? null : <LicenseMachines license={license} />}
        {!seat && !locked && !revoked ? (
          // Renewal and refund sit apart from Extend and the key, below a rule (issue 28).
          <div data-testid="license-danger" className="flex flex-col gap-2 border-t pt-4 empty:hidden">
            {hasSubscriptionSection(license) ? <SubscriptionSection license={license} action={action} /> : null}
            <LicenseRefund license={license} now={now} action={action} />
          </div>
        ) : null}
      </CardContent>
    </Collapsible>
  );
}

/** A team's license (issue 30): a member's seat or the owner's team subscription. */
function TeamNote({ team }: { team: { name: string; role: "billing" | "seat" } }) {
  return team.role === "seat" ? <SeatNote team={team.name} /> : <TeamSubscriptionNote team={team.name} />;
}

/** A seat license's origin: the team provides it, its owner pays for it. */
function SeatNote({ team }: { team: string }) {
  return (
    <p role="note" data-testid="seat-note" className="rounded-md border border-primary/40 bg-primary/10 px-3 py-2">
      Provided by {team}. The team&apos;s owner pays for it and manages its renewal; ask them about billing.
    </p>
  );
}

/** The owner's team subscription: what it is, and where its seats are handed out. */
function TeamSubscriptionNote({ team }: { team: string }) {
  return (
    <p
      role="note"
      data-testid="team-subscription-note"
      className="rounded-md border border-primary/40 bg-primary/10 px-3 py-2"
    >
      The subscription of {team}. It pays for your team&apos;s seats; the licenses to use are the seats.{" "}
      <Link to="/team" className="font-medium underline underline-offset-4">
        Hand out seats and change their number on your team page
      </Link>
      .
    </p>
  );
}

/** The one status line (app/domain/license-card.ts), red for a revoked license. */
function StatusLine({ summary }: { summary: LicenseSummary }) {
  return (
    <p data-testid="license-status" className="text-muted-foreground">
      {summary.kind === "revoked" ? (
        <span className="font-medium text-[oklch(0.8_0.13_25)]">{summary.line}</span>
      ) : (
        summary.line
      )}
    </p>
  );
}

/** The license's e-mail and dates. */
function LicenseDates({ license }: { license: LicenseView }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      <dt className="text-muted-foreground">E-mail</dt>
      <dd className="break-all">{license.email}</dd>
      <dt className="text-muted-foreground">Start</dt>
      <dd>{formatDate(license.start_date)}</dd>
      <dt className="text-muted-foreground">End</dt>
      <dd>{formatDate(license.end_date)}</dd>
      {license.purchase_date ? (
        <>
          <dt className="text-muted-foreground">Purchased</dt>
          <dd>{formatDate(license.purchase_date)}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** The row: type and short id, the badge, what happens next and its amount; it opens the card. */
function LicenseRowSummary({ license, summary, now }: { license: LicenseView; summary: LicenseSummary; now: Date }) {
  const { next, amount } = licenseNextStep(license, now);
  return (
    <CollapsibleTrigger className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl px-5 py-4 sm:px-6">
      <h2 className="text-base font-semibold">
        {licenseTypeLabel(license.license_type)} {license.team?.role === "billing" ? "team subscription" : "license"}
      </h2>
      <span className="font-mono text-sm text-muted-foreground" data-testid="license-short-id">
        {license.short_id}
      </span>
      <Badge variant={summary.badge.tone} data-testid="license-badge">
        {summary.badge.label}
      </Badge>
      {license.team ? (
        <span className="text-sm text-muted-foreground" data-testid="license-team">
          {license.team.role === "seat" ? "provided by" : "for"} {license.team.name}
        </span>
      ) : null}
      <span className="ml-auto flex items-center gap-3 text-sm text-muted-foreground">
        {next ? (
          <span data-testid="license-next">
            {next}
            {amount ? <span className="text-foreground"> · {amount}</span> : null}
          </span>
        ) : null}
        <ChevronDown aria-hidden className={CHEVRON_TURNS} />
      </span>
    </CollapsibleTrigger>
  );
}
