import { formatDate } from "~/domain/format-date";
import { licenseTypeLabel } from "~/domain/plans";

/** The license a payment made or extended, as the success page shows it. */
export function PurchasedLicenseCard({
  license,
}: {
  license: { short_id: string; license_type: string; end_date: string; is_trial: boolean };
}) {
  return (
    <dl
      data-testid="purchased-license"
      className="grid w-full grid-cols-[auto_1fr] gap-x-6 gap-y-1 rounded-md border bg-background/40 p-4 text-left text-sm"
    >
      <dt className="text-muted-foreground">License</dt>
      <dd className="font-mono" data-testid="purchased-license-id">
        {license.short_id}
      </dd>
      <dt className="text-muted-foreground">Plan</dt>
      <dd>
        {licenseTypeLabel(license.license_type)}
        {license.is_trial ? " (free trial)" : ""}
      </dd>
      <dt className="text-muted-foreground">{license.is_trial ? "Trial ends" : "Runs until"}</dt>
      <dd>{formatDate(license.end_date)}</dd>
    </dl>
  );
}
