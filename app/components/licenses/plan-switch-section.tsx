import { ArrowRightLeft } from "~/components/lucide-icons";
import { useState } from "react";
import { useFetcher } from "react-router";
import type { ActionResult } from "~/domain/action-result";
import {
  optionPriceText,
  planSwitchOptions,
  type PlanSwitchOption,
  type PlanSwitchPreview,
} from "~/domain/plan-switch";
import { PLAN_SWITCH_TEXTS, planSwitchPreviewLines } from "~/domain/plan-switch-texts";
import { licenseTypeLabel } from "~/domain/plans";
import type { LicenseView } from "~/domain/views";
import { cn } from "~/lib/utils";
import { Button } from "../ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import type { LicenseAction } from "./use-license-action";

/** The licenses action's answer to a preview: the provider's preview and its stamp, or why not. */
type PreviewAnswer = ActionResult & { planSwitch?: { preview: PlanSwitchPreview; stamp: string } };

/** The card's plan facts the rule reads: its own, and its team's part. */
const facts = (license: LicenseView) => ({ ...license, team_role: license.team?.role ?? license.team_role ?? null });

/**
 * "Change plan" on a paid license's card (decision 0061): the other plans with their prices, the
 * provider's preview of the one chosen, then the switch. Without JavaScript the button is a link to
 * the same steps as pages (/licenses/plan). A switch waiting for the renewal is said instead.
 */
export function PlanSwitchSection({
  license,
  action,
  now,
}: {
  license: LicenseView;
  action: LicenseAction;
  now: Date;
}) {
  if (license.plan_next_renewal) {
    return (
      <p role="note" data-testid="plan-switch-pending" className="text-muted-foreground">
        {PLAN_SWITCH_TEXTS.pending(licenseTypeLabel(license.plan_next_renewal), license.end_date)}
      </p>
    );
  }
  const options = planSwitchOptions(facts(license), now);
  if (options.length === 0) return null;
  if (!action.hydrated) {
    return (
      <Button asChild variant="outline" size="sm" className="self-start">
        <a href={`/licenses/plan?license=${license.id}`} aria-label={PLAN_SWITCH_TEXTS.buttonLabel(license.short_id)}>
          <ArrowRightLeft aria-hidden /> {PLAN_SWITCH_TEXTS.button}
        </a>
      </Button>
    );
  }
  return <PlanSwitchDialog license={license} options={options} action={action} />;
}

function PlanSwitchDialog({
  license,
  options,
  action,
}: {
  license: LicenseView;
  options: PlanSwitchOption[];
  action: LicenseAction;
}) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<PlanSwitchOption | null>(null);
  const preview = useFetcher<PreviewAnswer>();
  const choose = (option: PlanSwitchOption) => {
    setChosen(option);
    void preview.submit(
      { intent: "preview-plan", licenseId: license.id, plan: option.id },
      { method: "post", action: "/licenses" },
    );
  };
  const answer = preview.state === "idle" ? preview.data : undefined;
  const quote = answer?.planSwitch?.preview.to === chosen?.id ? answer?.planSwitch : undefined;
  const confirm = () => {
    if (!quote || !chosen) return;
    void action.fetcher.submit(
      { intent: "change-plan", licenseId: license.id, plan: chosen.id, stamp: quote.stamp },
      { method: "post", action: "/licenses" },
    );
    setOpen(false);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setChosen(null);
      }}
    >
      <DialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="self-start"
          disabled={action.disabled}
          aria-label={PLAN_SWITCH_TEXTS.buttonLabel(license.short_id)}
        >
          {action.pendingIntent === "change-plan" ? <Spinner /> : <ArrowRightLeft aria-hidden />}{" "}
          {PLAN_SWITCH_TEXTS.button}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{PLAN_SWITCH_TEXTS.title}</DialogTitle>
          <DialogDescription>{PLAN_SWITCH_TEXTS.choose}</DialogDescription>
        </DialogHeader>
        <PlanOptions options={options} chosen={chosen} onChoose={choose} />
        {chosen && preview.state !== "idle" ? <Spinner /> : null}
        {chosen && answer && !answer.planSwitch ? (
          <p role="alert" className="text-destructive">
            {answer.toast?.description}
          </p>
        ) : null}
        {quote ? <PlanSwitchPreviewList preview={quote.preview} /> : null}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setOpen(false)}>
            {PLAN_SWITCH_TEXTS.keep}
          </Button>
          <Button type="button" disabled={!quote} onClick={confirm}>
            {PLAN_SWITCH_TEXTS.confirm(chosen?.name ?? "the new plan")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The other plans, each a button that asks the provider for its preview. */
function PlanOptions({
  options,
  chosen,
  onChoose,
}: {
  options: PlanSwitchOption[];
  chosen: PlanSwitchOption | null;
  onChoose: (option: PlanSwitchOption) => void;
}) {
  return (
    <div className="flex flex-col gap-2" role="group" aria-label="Plans">
      {options.map((option) => (
        <Button
          key={option.id}
          type="button"
          variant="outline"
          aria-pressed={chosen?.id === option.id}
          className={cn("h-auto justify-between py-2", chosen?.id === option.id && "border-primary")}
          onClick={() => onChoose(option)}
        >
          <span className="font-medium">{option.name}</span>
          <span className="text-muted-foreground">{optionPriceText(option)}</span>
        </Button>
      ))}
    </div>
  );
}

/** The preview's lines: charged now, the next charge, what the license becomes. */
export function PlanSwitchPreviewList({ preview }: { preview: PlanSwitchPreview }) {
  return (
    <div data-testid="plan-switch-preview" className="flex flex-col gap-2 rounded-md border p-3 text-sm">
      <p className="font-medium">
        {preview.effect === "now" ? PLAN_SWITCH_TEXTS.effectNow : PLAN_SWITCH_TEXTS.effectRenewal}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {planSwitchPreviewLines(preview).map((line) => (
          <div key={line.id} className="contents" data-testid={`plan-switch-${line.id}`}>
            <dt className="text-muted-foreground">{line.label}</dt>
            <dd>{line.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
