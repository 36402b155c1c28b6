import { Undo2 } from "~/components/lucide-icons";
import { formatMoney } from "~/domain/billing";
import { formatDate } from "~/domain/format-date";
import { refundNote } from "~/domain/refund-note";
import { planRefund, refundRefusal, type RefundPlan } from "~/domain/refund-ledger";
import { REFUND_PERCENT } from "~/domain/plans";
import type { LicenseView } from "~/domain/views";
import { NeedsScript } from "../needs-script";
import { DESTRUCTIVE_OUTLINE } from "./license-actions";
import type { LicenseAction } from "./use-license-action";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/alert-dialog";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

/**
 * Where a license card offers its refund (decision 0036): Request Refund with a confirmation that lists
 * each charge the refund covers (the plan payment and every extension, 95% of each) and the total;
 * or, when the license cannot be refunded, the short reason why (app/domain/refund-note.ts).
 */
export function LicenseRefund({ license, now, action }: { license: LicenseView; now: Date; action: LicenseAction }) {
  const note = refundNote(license, now);
  if (note) return <RefundNote text={note} />;
  // A trial's section already says what happens and what it costs: no second note.
  if (refundRefusal(license, now)?.reason === "trial") return null;
  const plan = planRefund(license, license.charges ?? [], now);
  if (!plan.ok)
    return plan.reason === "nothing-paid" || plan.reason === "already-refunded" ? (
      <RefundNote text={plan.message} />
    ) : null;
  return <RefundDialog license={license} plan={plan} action={action} />;
}

function RefundNote({ text }: { text: string }) {
  return (
    <p className="basis-full text-xs text-muted-foreground" data-testid="refund-note">
      {text}
    </p>
  );
}

/** What a refund of a team's subscription does to its members (decision 0046): every seat is revoked. */
function teamRefundNote(team: string, members: number): string {
  if (members === 0) return `The refund covers all of ${team}'s seats; no member has a seat yet.`;
  return `The refund covers all of ${team}'s seats: ${members === 1 ? "1 member loses their seat" : `${members} members lose their seats`} and ${members === 1 ? "its license stops" : "their licenses stop"} working.`;
}

const sum = (plan: Extract<RefundPlan, { ok: true }>, field: "paidCents" | "refundCents") =>
  plan.totals.map((t) => formatMoney(t[field], t.currency)).join(" + ");

function RefundDialog({
  license,
  plan,
  action,
}: {
  license: LicenseView;
  plan: Extract<RefundPlan, { ok: true }>;
  action: LicenseAction;
}) {
  const { submit, pendingIntent, disabled } = action;
  const billed = new Map((license.charges ?? []).map((c) => [c.id, c.billed_at]));
  return (
    <span className="flex flex-wrap items-center gap-2">
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button type="button" variant="outline" size="sm" className={DESTRUCTIVE_OUTLINE} disabled={disabled}>
            {pendingIntent === "request-refund" ? <Spinner /> : <Undo2 aria-hidden />} Request Refund
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent data-testid="refund-dialog">
          <AlertDialogHeader>
            <AlertDialogTitle>Request a refund of {sum(plan, "refundCents")}?</AlertDialogTitle>
            <AlertDialogDescription>
              The refund covers every charge of this license: the plan and each extension, {REFUND_PERCENT}% of each.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <ul className="flex flex-col divide-y rounded-lg border text-sm" data-testid="refund-charges">
            {plan.lines.map((line) => (
              <li
                key={line.transactionId}
                className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2"
              >
                <span className="min-w-0">
                  <span className="font-medium">{line.description}</span>
                  <span className="block text-xs text-muted-foreground">
                    {billed.get(line.transactionId) ? `${formatDate(billed.get(line.transactionId)!)} · ` : ""}paid{" "}
                    {formatMoney(line.paidCents, line.currency)}
                  </span>
                </span>
                <span className="ml-auto tabular-nums">Refund {formatMoney(line.refundCents, line.currency)}</span>
              </li>
            ))}
            <li className="flex flex-wrap items-baseline justify-between gap-x-4 px-3 py-2 font-semibold">
              <span>Total (of {sum(plan, "paidCents")} paid)</span>
              <span className="tabular-nums" data-testid="refund-total">
                {sum(plan, "refundCents")}
              </span>
            </li>
          </ul>
          {license.team?.role === "billing" ? (
            <p role="note" className="text-sm font-medium" data-testid="refund-team-members">
              {teamRefundNote(license.team.name, license.team.members ?? 0)}
            </p>
          ) : null}
          <p className="text-sm text-muted-foreground">
            The license and its key stop working once the refund is approved, and it will not renew. Refunds are
            possible until {formatDate(license.refund_eligible_until!)}.
          </p>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep license</AlertDialogCancel>
            <AlertDialogAction onClick={() => submit("request-refund", license.id)}>Request refund</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <NeedsScript />
    </span>
  );
}
