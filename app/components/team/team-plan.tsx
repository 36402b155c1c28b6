import { useState } from "react";
import { PlanSwitchPreviewList } from "~/components/licenses/plan-switch-section";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { optionPriceText, type PlanSwitchPreview } from "~/domain/plan-switch";
import { licenseTypeLabel } from "~/domain/plans";
import { TEAM_PLAN_TEXTS } from "~/domain/team-plan-change";
import type { TeamView } from "~/domain/team-page";
import { NeedsScript } from "../needs-script";
import { useAnswer } from "../use-answer";
import { useTeamAction } from "./use-team-action";

/**
 * The owner changes the team's plan (decision 0074): the other plans, the provider's preview of the
 * one chosen (charged or credited now, the next charge, what every seat becomes), then the change.
 * A shorter plan waiting for the renewal, or why no change is offered, is said instead.
 */
export function TeamPlan({ team }: { team: TeamView }) {
  const quoter = useTeamAction();
  const changer = useTeamAction();
  const [quote, setQuote] = useState<{ preview: PlanSwitchPreview; stamp: string } | null>(null);
  useAnswer(quoter.fetcher.data, quoter.fetcher.state === "idle", (answer) => setQuote(answer.planChange ?? null));
  const plan = team.subscription?.plan;
  if (!team.subscription || !plan) return null;
  const current = licenseTypeLabel(team.planType);
  return (
    <section aria-labelledby="team-plan" className="rounded-lg border p-4" data-testid="team-plan">
      <h2 id="team-plan" className="text-xl font-semibold">
        {TEAM_PLAN_TEXTS.title}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground" data-testid="team-plan-current">
        {TEAM_PLAN_TEXTS.intro(current, team.seats.paid)}
      </p>
      {plan.nextRenewal ? (
        <p role="note" className="mt-2 text-sm" data-testid="team-plan-pending">
          {TEAM_PLAN_TEXTS.pending(licenseTypeLabel(plan.nextRenewal), team.subscription.endDate)}
        </p>
      ) : plan.refusal ? (
        <p role="note" className="mt-2 text-sm">
          {plan.refusal}
        </p>
      ) : (
        <div className="mt-3 flex flex-wrap items-center gap-2" role="group" aria-label="Plans">
          {plan.options.map((option) => (
            <Button
              key={option.id}
              type="button"
              variant="secondary"
              // The label is long ("Preview 6 Months ($49.50 every 6 months a seat)"): on a phone it wraps.
              className="h-auto min-h-9 shrink whitespace-normal text-left"
              disabled={quoter.busy || !quoter.hydrated}
              onClick={() => quoter.submit({ intent: "preview-plan", teamId: team.id, plan: option.id })}
            >
              Preview {option.name} ({optionPriceText(option)} a seat)
            </Button>
          ))}
          <NeedsScript />
        </div>
      )}
      <AlertDialog open={quote !== null} onOpenChange={(open) => (open ? null : setQuote(null))}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>
              {quote ? TEAM_PLAN_TEXTS.confirm(licenseTypeLabel(quote.preview.to)) : null}?
            </AlertDialogTitle>
            <AlertDialogDescription>Every seat of the team changes with it.</AlertDialogDescription>
          </AlertDialogHeader>
          {quote ? <PlanSwitchPreviewList preview={quote.preview} /> : null}
          <AlertDialogFooter>
            <AlertDialogCancel>{TEAM_PLAN_TEXTS.keep}</AlertDialogCancel>
            <AlertDialogAction
              onClick={() =>
                quote &&
                changer.submit({ intent: "change-plan", teamId: team.id, plan: quote.preview.to, stamp: quote.stamp })
              }
            >
              {quote ? TEAM_PLAN_TEXTS.confirm(licenseTypeLabel(quote.preview.to)) : null}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}
