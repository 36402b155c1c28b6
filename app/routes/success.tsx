import { pageTitle } from "~/lib/meta";
import { CheckCircle2 } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/success";

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

/** After a completed checkout: payment successful, the transaction id when there is one. */
export default function Success() {
  const [searchParams] = useSearchParams();
  const transactionId = searchParams.get("transactionId");
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16">
      <Card className="text-center">
        <CardHeader className="justify-items-center">
          <CheckCircle2 aria-hidden className="mb-2 size-12 text-success" />
          <CardTitle>
            <h1 className="text-2xl font-semibold">Payment successful</h1>
          </CardTitle>
          <CardDescription className="text-base">
            Thank you! Your license appears on your licenses page as soon as the payment is confirmed, usually within a
            few seconds.
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
