import { pageTitle } from "~/lib/meta";
import { CheckCircle2 } from "lucide-react";
import { useEffect } from "react";
import { Link, useRevalidator, useSearchParams } from "react-router";
import { PurchasedLicenseCard } from "~/components/licenses/purchased-license-card";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requireUser } from "~/server/auth/session.server";
import { purchasedLicense } from "~/server/billing/purchased-license.server";
import type { Route } from "./+types/success";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const transactionId = new URL(request.url).searchParams.get("transactionId");
  return { license: transactionId ? await purchasedLicense(user.id, transactionId) : null };
}

/** How often, and how many times, the page looks again for a license whose payment is still being confirmed. */
const LOOK_AGAIN_MS = 2000;
const LOOK_AGAIN_TIMES = 15;

/**
 * After a completed checkout: payment successful, the transaction id when there is one, the new
 * license (short id, plan, end date) once the payment is confirmed, and what to do next.
 */
export default function Success({ loaderData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const transactionId = searchParams.get("transactionId");
  const { license } = loaderData;
  const revalidator = useRevalidator();
  const waiting = Boolean(transactionId) && !license;
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
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16">
      <Card className="text-center">
        <CardHeader className="justify-items-center">
          <CheckCircle2 aria-hidden className="mb-2 size-12 text-success" />
          <CardTitle>
            <h1 className="text-2xl font-semibold">Payment successful</h1>
          </CardTitle>
          <CardDescription className="text-base">
            {license
              ? "Thank you! Your license is ready."
              : "Thank you! Your license appears on your licenses page as soon as the payment is confirmed, usually within a few seconds."}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col items-center gap-5">
          {transactionId ? (
            <p className="text-sm text-muted-foreground">
              Transaction ID:{" "}
              <code data-testid="transaction-id" className="break-all font-mono text-foreground">
                {transactionId}
              </code>
            </p>
          ) : null}
          {license ? <PurchasedLicenseCard license={license} /> : null}
          <ol className="flex w-full flex-col gap-1 text-left text-sm text-muted-foreground" data-testid="next-steps">
            <li>
              1. <strong className="text-foreground">Download</strong> the installer and install the tool.
            </li>
            <li>
              2. <strong className="text-foreground">Activate</strong> it: copy the key from your licenses page and
              paste it into the tool when it asks.
            </li>
          </ol>
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

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Payment successful"),
  { name: "description", content: "Your payment was successful." },
  { name: "robots", content: "noindex" },
];
