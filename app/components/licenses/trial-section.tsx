import { CalendarClock, CreditCard, XCircle } from "~/components/lucide-icons";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { paidPlanNow, TRIAL_TEXTS, trialConversion, trialEndText } from "~/domain/trial-conversion";
import type { LicenseView } from "~/domain/views";
import { DESTRUCTIVE_OUTLINE, NativeActionButton } from "./license-actions";
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
 * A plan bought with the free trial (decision 0037): when and how much the first charge
 * is, and the two ways to decide — "Start paid plan now" and "Cancel trial" — each confirmed in a
 * dialog (a plain form post before the scripts run). A cancelled trial says until when it works.
 */
export function TrialSection({ license, now, action }: { license: LicenseView; now: Date; action: LicenseAction }) {
  const trial = trialConversion(license, now);
  if (!trial) return <TrialEndNote text={trialEndText(license, now)} />;
  if (trial.state === "cancelled") {
    return (
      <p role="note" data-testid="trial-conversion" className="rounded-md border px-3 py-2 text-muted-foreground">
        {trial.text}
      </p>
    );
  }
  const paid = paidPlanNow(license, now)!;
  return (
    <div
      className="flex flex-col gap-3 rounded-md border border-primary/40 bg-primary/5 px-3 py-3"
      data-testid="trial-conversion"
    >
      <p className="flex items-start gap-2 font-medium">
        <CalendarClock aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <span data-testid="trial-first-charge">{trial.text}</span>
      </p>
      <p className="text-muted-foreground">
        Your {trial.planName} plan starts then and renews automatically. Cancel the trial before then and nothing is
        charged.
      </p>
      <div className="flex flex-wrap gap-2">
        <TrialAction
          intent="start-paid-plan"
          license={license}
          action={action}
          icon={<CreditCard aria-hidden />}
          label={TRIAL_TEXTS.startButton}
          title={TRIAL_TEXTS.startTitle(paid.amountCents, paid.currency)}
          body={TRIAL_TEXTS.startBody(paid.amountCents, paid.currency, paid.planName, paid.periodEnd)}
          confirm={TRIAL_TEXTS.startConfirm}
          keep={TRIAL_TEXTS.startKeep}
        />
        <TrialAction
          intent="cancel-trial"
          license={license}
          action={action}
          icon={<XCircle aria-hidden />}
          label={TRIAL_TEXTS.cancelButton}
          title={TRIAL_TEXTS.cancelTitle}
          body={TRIAL_TEXTS.cancelBody(trial.firstChargeAt)}
          confirm={TRIAL_TEXTS.cancelConfirm}
          keep={TRIAL_TEXTS.cancelKeep}
        />
      </div>
    </div>
  );
}

/** A trial that does not turn into a plan: what happens at its end date, and the plan that keeps the tool working. */
function TrialEndNote({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <div role="note" data-testid="trial-end" className="flex flex-col gap-2 rounded-md border px-3 py-2">
      <p className="flex items-start gap-2">
        <CalendarClock aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <span>{text}</span>
      </p>
      <Button asChild size="sm" className="self-start">
        <Link to="/pricing">Buy a plan</Link>
      </Button>
    </div>
  );
}

interface TrialActionProps {
  intent: "start-paid-plan" | "cancel-trial";
  license: LicenseView;
  action: LicenseAction;
  icon: ReactNode;
  label: string;
  title: string;
  body: string;
  confirm: string;
  keep: string;
}

/** One of the trial's actions: a confirmation dialog once hydrated, a plain form post before. */
function TrialAction({ intent, license, action, icon, label, title, body, confirm, keep }: TrialActionProps) {
  const { submit, pendingIntent, disabled, hydrated } = action;
  if (!hydrated) {
    return (
      <NativeActionButton intent={intent} licenseId={license.id} destructive={intent === "cancel-trial"}>
        {icon} {label}
      </NativeActionButton>
    );
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          type="button"
          variant={intent === "start-paid-plan" ? "default" : "outline"}
          size="sm"
          className={intent === "cancel-trial" ? DESTRUCTIVE_OUTLINE : undefined}
          disabled={disabled}
        >
          {pendingIntent === intent ? <Spinner /> : icon} {label}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{body}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{keep}</AlertDialogCancel>
          <AlertDialogAction onClick={() => submit(intent, license.id)}>{confirm}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
