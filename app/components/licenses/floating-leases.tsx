import { formatDateTime } from "~/domain/format-date";
import { LEASE_TEXTS, type LicenseLeasesView } from "~/domain/leases";

/**
 * A license's floating leases (decision 0069), only for a plan with floating use: "N of M floating
 * leases in use" on the license card; the admin's user page also lists each live lease (its machine's
 * name and when it ends unless heartbeated), so support sees which build server holds one.
 */
export function FloatingLeases({ floating, listed = false }: { floating?: LicenseLeasesView; listed?: boolean }) {
  if (!floating) return null;
  return (
    <div className="flex flex-col gap-1" data-testid="floating-leases">
      <p className="text-muted-foreground" data-testid="floating-leases-used">
        {LEASE_TEXTS.inUse(floating.leases.length, floating.limit)}
      </p>
      {listed && floating.leases.length > 0 ? (
        <ul className="flex flex-col gap-0.5 pl-4 text-muted-foreground" data-testid="floating-lease-list">
          {floating.leases.map((lease) => (
            <li key={lease.id}>
              {lease.name ?? LEASE_TEXTS.unnamed}: {LEASE_TEXTS.until(formatDateTime(lease.expires_at))}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
