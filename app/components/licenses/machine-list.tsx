import { Monitor } from "~/components/lucide-icons";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import { formatDate } from "~/domain/format-date";
import { DEACTIVATE_MACHINE, MACHINE_TEXTS, type MachineView } from "~/domain/machine-texts";
import { buttonVariants } from "../ui/button";
import { Button } from "../ui/button";
import { useActionToast } from "../use-action-toast";
import { useHydrated } from "../use-hydrated";

/**
 * A license's active machines, each with name, platform, app version, last seen and activation date,
 * and "Deactivate" behind a confirmation that works without JavaScript (a disclosure holding the
 * form). With JavaScript the form goes through a fetcher (js=1: the answer is a toast and the page's
 * data reloads); without, the browser posts it and comes back with the same toast.
 */
export function MachineList({
  machines,
  action,
  licenseId,
  canDeactivate = true,
  note,
  empty,
}: {
  machines: MachineView[];
  action: string;
  licenseId: string;
  canDeactivate?: boolean;
  note?: string;
  /** Shown when there is no machine (the list stays mounted, so the last deactivation's toast still shows). */
  empty: string;
}) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.state === "idle" ? fetcher.data : null);
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  if (machines.length === 0) return <p className="text-muted-foreground">{empty}</p>;
  return (
    <ul className="flex flex-col divide-y divide-border rounded-md border border-border" data-testid="machine-list">
      {machines.map((machine) => (
        <li
          key={machine.id}
          className="flex flex-col gap-2 px-3 py-2 sm:flex-row sm:items-start sm:justify-between"
          data-testid="machine"
          data-machine-name={machine.name}
        >
          <div className="flex min-w-0 gap-2">
            <Monitor aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
            <div className="min-w-0">
              <p className="font-medium break-words">{machine.name}</p>
              <p className="text-muted-foreground break-words">
                {[machine.platform, machine.app_version ? `version ${machine.app_version}` : null]
                  .filter(Boolean)
                  .join(" · ") || "Platform not reported"}
              </p>
              <p className="text-muted-foreground">
                Last seen {formatDate(machine.last_seen_at)} · Activated on {formatDate(machine.activated_at)}
              </p>
            </div>
          </div>
          {canDeactivate ? (
            <details className="group shrink-0 sm:text-right">
              <summary
                className={buttonVariants({ variant: "outline", size: "sm", className: "cursor-pointer list-none" })}
              >
                {MACHINE_TEXTS.deactivate}
              </summary>
              <fetcher.Form
                method="post"
                action={action}
                className="mt-2 flex max-w-xs flex-col gap-2 rounded-md border border-border bg-card p-3 text-left"
              >
                <p className="font-medium">{MACHINE_TEXTS.confirmTitle(machine.name)}</p>
                <p className="text-muted-foreground">{MACHINE_TEXTS.confirmBody}</p>
                {note ? <p className="text-muted-foreground">{note}</p> : null}
                <input type="hidden" name="intent" value={DEACTIVATE_MACHINE} />
                <input type="hidden" name="licenseId" value={licenseId} />
                <input type="hidden" name="machineId" value={machine.id} />
                {hydrated ? <input type="hidden" name="js" value="1" /> : null}
                {/* The title names the machine; the button's name does too, for screen readers and tests. */}
                <Button
                  type="submit"
                  variant="destructive"
                  size="sm"
                  disabled={busy}
                  aria-label={`Yes, deactivate ${machine.name}`}
                >
                  Yes, deactivate
                </Button>
              </fetcher.Form>
            </details>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
