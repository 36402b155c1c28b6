import { CalendarPlus, Copy, FileDown, KeyRound } from "lucide-react";
import { Link } from "react-router";
import { formatDate } from "~/domain/format-date";
import {
  getLicenseDisplayStatus,
  hasSubscriptionSection,
  isRefundLocked,
  licenseTypeLabel,
} from "~/domain/license-status";
import { showToast } from "~/lib/toast";
import type { LicenseView } from "~/domain/views";
import { LicensePaymentProblem } from "./license-payment-problem";
import { OfflineDataSection, RefundButton, SubscriptionSection, useLicenseAction } from "./license-actions";
import { Badge } from "./ui/badge";
import { Button } from "./ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "./ui/card";

/** One license: type, status (spec.md section 4), dates, key with copy, offline data, renewal. */
export function LicenseCard({ license, now }: { license: LicenseView; now: Date }) {
  const status = getLicenseDisplayStatus(license, now);
  const locked = isRefundLocked(license);
  const action = useLicenseAction();
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(license.license_key ?? "");
      showToast({ title: "Copied", description: "License key copied to the clipboard.", variant: "success" });
    } catch {
      showToast({ title: "Copy failed", description: "Select the key and copy it by hand.", variant: "destructive" });
    }
  };
  return (
    <Card
      data-testid="license-card"
      data-status={status.kind}
      className={status.kind === "revoked" ? "border-destructive/60" : undefined}
    >
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{licenseTypeLabel(license.license_type)} license</h2>
        </CardTitle>
        <CardDescription data-testid="license-status">
          {status.kind === "revoked" ? (
            <span className="font-medium text-[oklch(0.8_0.13_25)]">Revoked</span>
          ) : locked && license.status !== "refund_requested" ? (
            <>Refunded{license.refunded_at ? ` on ${formatDate(license.refunded_at)}` : ""}</>
          ) : status.kind === "trial-active" ? (
            <>Active, trial until {formatDate(status.date)}</>
          ) : status.kind === "trial-expired" ? (
            <>Trial Expired on {formatDate(status.date)}</>
          ) : status.kind === "active" ? (
            <>
              Active, {status.detail} {formatDate(status.date)}
            </>
          ) : (
            <>Expired on {formatDate(status.date)}</>
          )}
        </CardDescription>
        <CardAction className="flex flex-wrap justify-end gap-2">
          {license.status === "refund_requested" ? <Badge variant="warning">Refund requested</Badge> : null}
          {locked && license.status !== "refund_requested" ? <Badge variant="secondary">Refunded</Badge> : null}
          {status.kind === "revoked" ? <Badge variant="destructive">Revoked</Badge> : null}
          {!locked && (status.kind === "active" || status.kind === "trial-active") ? (
            <Badge variant="success">Active</Badge>
          ) : null}
          {status.kind === "expired" || status.kind === "trial-expired" ? (
            <Badge variant="outline">{status.kind === "expired" ? "Expired" : "Trial Expired"}</Badge>
          ) : null}
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {status.kind === "revoked" ? (
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
            <div className="flex flex-col gap-2">
              <span className="flex items-center gap-1.5 font-medium">
                <KeyRound aria-hidden className="size-4 text-primary" /> License key
              </span>
              <div className="flex items-start gap-2">
                <code
                  data-testid="license-key"
                  className="min-w-0 flex-1 break-all rounded-md border bg-background/60 px-3 py-2 font-mono text-xs"
                >
                  {license.license_key}
                </code>
                <Button type="button" variant="secondary" size="sm" onClick={copyKey} aria-label="Copy license key">
                  <Copy aria-hidden /> Copy
                </Button>
              </div>
            </div>
            {license.is_trial || license.license_type === "trial" || status.kind === "revoked" ? null : (
              <OfflineDataSection license={license} action={action} />
            )}
          </>
        )}
        {!locked && status.kind !== "revoked" ? (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <Link
                to="/extend-license"
                state={{ license: { id: license.id, license_type: license.license_type, end_date: license.end_date } }}
              >
                <CalendarPlus aria-hidden /> Extend
              </Link>
            </Button>
            {status.kind === "active" || status.kind === "trial-active" ? (
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
        {hasSubscriptionSection(license) && !locked && status.kind !== "revoked" ? (
          <SubscriptionSection license={license} action={action} />
        ) : null}
      </CardContent>
    </Card>
  );
}
