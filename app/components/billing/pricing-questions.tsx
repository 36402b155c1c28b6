import { Link } from "react-router";
import { licenseCoverage } from "~/domain/machine-texts";
import { DEFAULT_MACHINE_LIMITS } from "~/domain/machines";
import { REFUND_WINDOW_DAYS, TRIAL_DAYS } from "~/domain/plans";
import { useRootData } from "../use-root-data";

/** The questions a buyer asks before paying: what a license covers, offline use, the trial, refunds, the payer. */
export function PricingQuestions() {
  const limits = useRootData()?.publicConfig.machinesPerPlan ?? DEFAULT_MACHINE_LIMITS;
  return (
    <section aria-labelledby="faq" className="mx-auto mt-16 max-w-3xl">
      <h2 id="faq" className="text-2xl font-semibold tracking-tight">
        Questions
      </h2>
      <dl className="mt-6 flex flex-col gap-6">
        <div>
          <dt className="font-medium">What does one license cover?</dt>
          <dd className="mt-1 text-muted-foreground">
            {licenseCoverage(limits)} For a team, buy seats on one subscription and hand them out from your team page.
          </dd>
        </div>
        <div>
          <dt className="font-medium">Can I use it offline?</dt>
          <dd className="mt-1 text-muted-foreground">
            Yes. Tie a license to your Windows username or computer name once, and the tool checks it without a
            connection.
          </dd>
        </div>
        <div>
          <dt className="font-medium">How does the free trial work?</dt>
          <dd className="mt-1 text-muted-foreground">
            If you have never had a license, your first plan starts with {TRIAL_DAYS} free days. Cancel before they end
            and you pay nothing.
          </dd>
        </div>
        <div>
          <dt className="font-medium">Can I get a refund?</dt>
          <dd className="mt-1 text-muted-foreground">
            Within {REFUND_WINDOW_DAYS} days of purchase you can request a refund from your licenses page. See the{" "}
            <Link to="/refund-policy" className="text-primary underline underline-offset-4">
              Refund Policy
            </Link>{" "}
            for the details.
          </dd>
        </div>
        <div>
          <dt className="font-medium">Who handles the payment?</dt>
          <dd className="mt-1 text-muted-foreground">
            Paddle, our reseller and merchant of record, processes payments, invoices and sales tax. We never see your
            card number.
          </dd>
        </div>
      </dl>
    </section>
  );
}
