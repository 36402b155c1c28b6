import { pageTitle } from "~/lib/meta";
import { CheckCircle2, PartyPopper } from "~/components/lucide-icons";
import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { LicenseKeyLine } from "~/components/licenses/license-key-line";
import { PurchasedLicenseCard } from "~/components/licenses/purchased-license-card";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { successWords } from "~/domain/success-page";
import { requireUser } from "~/http/session-guards.server";
import { successView } from "~/server/billing/purchased-license.server";
import type { Route } from "./+types/success";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const transactionId = new URL(request.url).searchParams.get("transactionId");
  return { view: await successView(user.id, transactionId) };
}

/** How often, and how many times, the page looks again for a license whose payment is still being confirmed. */
const LOOK_AGAIN_MS = 2000;
const LOOK_AGAIN_TIMES = 15;

/**
 * After a completed checkout. The transaction id, the license and the payment are shown only for a
 * transaction of the signed-in user (docs/product.md, "Buying"); a trial says it started and when
 * its first charge comes; any other id gets a thank-you that claims no payment.
 */
export default function Success({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  const { heading, lead } = successWords(view);
  const revalidator = useRevalidator();
  const waiting = view.kind === "confirming";
  useEffect(() => {
    if (!waiting) return;
    let times = 0;
    const timer = setInterval(() => {
      if (++times > LOOK_AGAIN_TIMES) return clearInterval(timer);
      void revalidator.revalidate();
    }, LOOK_AGAIN_MS);
    return () => clearInterval(timer);
    // revalidator is a new object on every render; the interval only needs to start once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting]);
  const Icon = view.kind === "trial-started" ? PartyPopper : CheckCircle2;
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16">
      <Card className="text-center" data-testid="success" data-kind={view.kind}>
        <CardHeader className="justify-items-center">
          <Icon aria-hidden className="mb-2 size-12 text-success" />
          <CardTitle>
            <h1 className="text-2xl font-semibold">{heading}</h1>
          </CardTitle>
          <CardDescription className="text-base" data-testid="success-lead">
            {lead}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col items-center gap-5">
          {view.kind === "generic" ? null : (
            <p className="text-sm text-muted-foreground">
              Transaction ID:{" "}
              <code data-testid="transaction-id" className="break-all font-mono text-foreground">
                {view.transactionId}
              </code>
            </p>
          )}
          {view.kind === "paid" && view.team ? (
            <Button asChild data-testid="success-team">
              <Link to="/team">Invite your team</Link>
            </Button>
          ) : view.kind === "paid" || view.kind === "trial-started" ? (
            <>
              <PurchasedLicenseCard license={view.license} />
              {view.license.license_key ? (
                <div className="w-full text-left text-sm">
                  <LicenseKeyLine licenseKey={view.license.license_key} shortId={view.license.short_id} copyable />
                </div>
              ) : null}
            </>
          ) : null}
          <NextSteps />
          <div className="flex flex-wrap justify-center gap-3">
            <Button asChild>
              <Link to="/licenses">Go to Licenses</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/download">Download</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

function NextSteps() {
  return (
    <ol className="flex w-full flex-col gap-1 text-left text-sm text-muted-foreground" data-testid="next-steps">
      <li>
        1. <strong className="text-foreground">Download</strong> the installer and install the tool.
      </li>
      <li>
        2. <strong className="text-foreground">Activate</strong> it: copy the key from your licenses page and paste it
        into the tool when it asks.
      </li>
    </ol>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Payment successful"),
  { name: "description", content: "After your checkout: your new license and what to do next." },
  { name: "robots", content: "noindex" },
];
