import { CalendarPlus, FileDown } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { canCopyKey, canExtendLicense, summarizeLicense, type LicenseSummary } from "~/domain/license-card";
import { formatDate } from "~/domain/format-date";
import { hasSubscriptionSection, isRefundLocked, licenseTypeLabel } from "~/domain/license-status";
import type { LicenseView } from "~/domain/views";
import { LicenseKeyLine } from "./license-key-line";
import { LicensePaymentProblem } from "./license-payment-problem";
import { OfflineDataSection, RefundButton, SubscriptionSection } from "./license-actions";
import { useLicenseAction } from "./use-license-action";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";

/**
 * One license: type and short id, one badge and one status line (app/domain/license-card.ts),
 * dates, the key in one line, offline data, renewal. `notices` are shown first in the card's body
 * (e.g. a payment problem); the rules for what a card offers live in the domain module.
 */
export function LicenseCard({ license, now, notices }: { license: LicenseView; now: Date; notices?: ReactNode }) {
  const summary = summarizeLicense(license, now);
  const locked = isRefundLocked(license);
  const revoked = summary.kind === "revoked";
  const action = useLicenseAction();
  const working = summary.kind === "active" || summary.kind === "trial-active";
  return (
    <Card
      data-testid="license-card"
      data-status={summary.kind}
      data-short-id={license.short_id}
      className={revoked ? "border-destructive/60" : undefined}
    >
      <LicenseCardHeader license={license} summary={summary} />
      <CardContent className="flex flex-col gap-4 text-sm">
        {notices}
        {revoked ? (
          <p role="note" className="rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2">
            This license was revoked and no longer works. Contact support if you think this is a mistake.
          </p>
        ) : null}
        <LicensePaymentProblem license={license} now={now} />
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
        {locked ? (
          <p role="note" className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2">
            {license.status === "refund_requested"
              ? "A refund was requested for this license. Its key and offline data are hidden while the refund is processed."
              : `This license was refunded${license.refund_amount != null ? ` ($${(license.refund_amount / 100).toFixed(2)})` : ""}. Its key and offline data are no longer available.`}
          </p>
        ) : (
          <>
            {license.license_key ? (
              <LicenseKeyLine licenseKey={license.license_key} copyable={canCopyKey(license, now)} />
            ) : null}
            {license.is_trial || license.license_type === "trial" || revoked ? null : (
              <OfflineDataSection license={license} action={action} />
            )}
          </>
        )}
        {!locked && !revoked ? (
          <div className="flex flex-wrap gap-2">
            {canExtendLicense(license) ? (
              <Button asChild variant="outline" size="sm">
                <Link to={`/extend-license?license=${encodeURIComponent(license.id)}`}>
                  <CalendarPlus aria-hidden /> Extend
                </Link>
              </Button>
            ) : null}
            {working ? (
              <Button asChild variant="outline" size="sm">
                {/* A file to save: a plain download, not a client-side navigation. */}
                <a href={`/licenses/${license.id}/file`} download>
                  <FileDown aria-hidden /> Download license file
                </a>
              </Button>
            ) : null}
            <RefundButton license={license} now={now} action={action} />
          </div>
        ) : null}
        {hasSubscriptionSection(license) && !locked && !revoked ? (
          <SubscriptionSection license={license} action={action} />
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The card's title (type and short id), its badge and its one status line. */
export function LicenseCardHeader({ license, summary }: { license: LicenseView; summary: LicenseSummary }) {
  return (
    <CardHeader>
      <CardTitle className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 className="text-lg">{licenseTypeLabel(license.license_type)} license</h2>
        <span className="font-mono text-sm font-normal text-muted-foreground" data-testid="license-short-id">
          {license.short_id}
        </span>
      </CardTitle>
      <CardDescription data-testid="license-status">
        {summary.kind === "revoked" ? (
          <span className="font-medium text-[oklch(0.8_0.13_25)]">{summary.line}</span>
        ) : (
          summary.line
        )}
      </CardDescription>
      <CardAction>
        <Badge variant={summary.badge.tone} data-testid="license-badge">
          {summary.badge.label}
        </Badge>
      </CardAction>
    </CardHeader>
  );
}
