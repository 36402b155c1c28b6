import { CalendarPlus, ChevronDown } from "~/components/lucide-icons";
import type { ReactNode } from "react";
import { Link } from "react-router";
import {
  canCopyKey,
  canExtendLicense,
  endedOffer,
  revokedNote,
  summarizeLicense,
  type LicenseSummary,
} from "~/domain/license-card";
import { licenseNextStep } from "~/domain/license-attention";
import { formatMoney } from "~/domain/billing";
import { formatDate } from "~/domain/format-date";
import { cn } from "~/lib/utils";
import { hasSubscriptionSection, isRefundLocked } from "~/domain/license-status";
import { entitlementLabels } from "~/domain/entitlements";
import { licenseFallbackSentence } from "~/domain/fallback";
import { entitlementsOf, licenseTypeLabel } from "~/domain/plans";
import type { LicenseView } from "~/domain/views";
import { LicenseKeyLine } from "./license-key-line";
import { LicenseMachines } from "./license-machines";
import { LicensePaymentProblem } from "./license-payment-problem";
import { OfflineDataSection, SubscriptionSection } from "./license-actions";
import { LicenseRefund } from "./license-refund";
import { PlanSwitchSection } from "./plan-switch-section";
import { TrialSection } from "./trial-section";
import { useLicenseAction } from "./use-license-action";
import { useRootData } from "../use-root-data";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { CardContent } from "../ui/card";
import { CHEVRON_TURNS, Collapsible, CollapsibleTrigger } from "../ui/collapsible";

/**
 * One license as a compact row (decision 0040): type, short id, badge, next date and amount; it opens
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
  const ended = endedOffer(license, now);
  return (
    <Collapsible
      id={`license-${license.id}`}
      open={open}
      data-testid="license-card"
      data-status={summary.kind}
      data-short-id={license.short_id}
      // The server's copy until React has hydrated this card, a moment after the page (decision 0083).
      data-awaiting-hydration={action.hydrated ? undefined : ""}
      className={cn("scroll-mt-20 rounded-xl border bg-card shadow-sm", revoked && "border-destructive/60")}
    >
      <LicenseRowSummary license={license} summary={summary} now={now} />
      <CardContent className="flex flex-col gap-4 pb-6 text-sm">
        <StatusLine summary={summary} />
        {notices}
        {license.team && !revoked ? <TeamNote team={license.team} /> : null}
        {revoked ? <RevokedNote license={license} /> : null}
        {seat ? null : <LicensePaymentProblem license={license} now={now} />}
        {seat ? null : <TrialSection license={license} now={now} action={action} />}
        {ended && !seat ? <EndedNote offer={ended} /> : null}
        <FallbackNote license={license} now={now} />
        <LicenseDates license={license} />
        {locked ? (
          <p role="note" className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2">
            {/* The status line says it is refunded or being refunded: the note says what that means. */}
            {license.status === "refund_requested"
              ? "Its key and offline data are hidden until the refund is done."
              : `${license.refund_amount != null ? `${formatMoney(license.refund_amount, "USD")} went back to your payment method. ` : ""}Its key and offline data are no longer available.`}
          </p>
        ) : teamSubscription ? null : (
          <>
            {license.license_key ? (
              <LicenseKeyLine
                licenseKey={license.license_key}
                shortId={license.short_id}
                copyable={canCopyKey(license, now)}
                fileHref={working ? `/licenses/${license.id}/file` : null}
              />
            ) : null}
            {license.is_trial || license.license_type === "trial" || revoked ? null : (
              <OfflineDataSection license={license} action={action} canEdit={!ended} />
            )}
          </>
        )}
        {!seat && !teamSubscription && !locked && !revoked && canExtendLicense(license) ? (
          <ExtendLink licenseId={license.id} />
        ) : null}
        {!seat && !teamSubscription && !locked && !revoked ? (
          <PlanSwitchSection license={license} action={action} now={now} />
        ) : null}
        {teamSubscription ? null : <LicenseMachines license={license} ended={ended !== null} />}
        {!seat && !locked && !revoked ? (
          // Renewal and refund sit apart from Extend and the key, below a rule.
          <div data-testid="license-danger" className="flex flex-col gap-2 border-t pt-4 empty:hidden">
            {hasSubscriptionSection(license) ? <SubscriptionSection license={license} action={action} /> : null}
            <LicenseRefund license={license} now={now} action={action} />
          </div>
        ) : null}
      </CardContent>
    </Collapsible>
  );
}

/** Why a revoked license stopped working and whom to ask: a removed member, the team's owner; otherwise support. */
function RevokedNote({ license }: { license: LicenseView }) {
  const supportEmail = useRootData()?.publicConfig.supportEmail;
  return (
    <p
      role="note"
      data-testid="revoked-note"
      className="rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2"
    >
      {revokedNote(license, supportEmail)}
    </p>
  );
}

/** Extend: the extension page for this license. */
function ExtendLink({ licenseId }: { licenseId: string }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild size="sm">
        <Link to={`/extend-license?license=${encodeURIComponent(licenseId)}`}>
          <CalendarPlus aria-hidden /> Extend
        </Link>
      </Button>
    </div>
  );
}

/** An ended license: it says its key no longer works, and what helps (Extend below, or buying a plan). */
function EndedNote({ offer }: { offer: { next: "extend" | "buy"; line: string } }) {
  return (
    <div role="note" data-testid="ended-note" className="flex flex-col gap-2 rounded-md border px-3 py-2">
      <p>{offer.line}</p>
      {offer.next === "buy" ? (
        <Button asChild size="sm" className="self-start">
          <Link to="/pricing">Buy a plan</Link>
        </Button>
      ) : null}
    </div>
  );
}

/** A team's license (decision 0046): a member's seat or the owner's team subscription. */
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

/** What the license keeps after its subscription ends (decision 0070), when it earned a fallback. */
function FallbackNote({ license, now }: { license: LicenseView; now: Date }) {
  const sentence = licenseFallbackSentence(license, now);
  return sentence ? <p data-testid="license-fallback">{sentence}</p> : null;
}

/** The license's e-mail and dates. */
function LicenseDates({ license }: { license: LicenseView }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      <dt className="text-muted-foreground">E-mail</dt>
      <dd className="break-all">{license.email}</dd>
      <dt className="text-muted-foreground">Start</dt>
      <dd>{formatDate(license.start_date)}</dd>
      <dt className="text-muted-foreground">
        {license.is_trial || license.license_type === "trial" ? "Trial ends" : "End"}
      </dt>
      <dd>{formatDate(license.end_date)}</dd>
      {/* From the plan table, as the pricing page and the desktop API name them. */}
      <dt className="text-muted-foreground">Includes</dt>
      <dd data-testid="license-entitlements">{entitlementLabels(entitlementsOf(license.license_type)).join(", ")}</dd>
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
      {/* The short id is part of the heading: two licenses of one plan read apart (decision 0057). */}
      <h2 className="flex flex-wrap items-baseline gap-x-3 text-base font-semibold">
        {licenseTypeLabel(license.license_type)} {license.team?.role === "billing" ? "team subscription" : "license"}{" "}
        <span className="font-mono text-sm font-normal text-muted-foreground" data-testid="license-short-id">
          {license.short_id}
        </span>
      </h2>
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
          // Said by the status line once the row is open: hidden then, so the card says it once (decision 0060).
          <span data-testid="license-next" className="[[open]>summary_&]:hidden">
            {next}
            {amount ? <span className="text-foreground"> · {amount}</span> : null}
          </span>
        ) : null}
        <ChevronDown aria-hidden className={CHEVRON_TURNS} />
      </span>
    </CollapsibleTrigger>
  );
}
