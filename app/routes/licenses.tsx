import { ChevronDown, Plus } from "lucide-react";
import { Link } from "react-router";
import { LicenseCard } from "~/components/license-card";
import { Button } from "~/components/ui/button";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "~/components/ui/collapsible";
import { requireUser } from "~/server/auth/session.server";
import { listUserLicenses } from "~/server/licenses/list-licenses.server";
import type { Route } from "./+types/licenses";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { licenses: await listUserLicenses(user.id), now: new Date().toISOString() };
}

export default function Licenses({ loaderData }: Route.ComponentProps) {
  const { licenses } = loaderData;
  // The server's clock decides what is expired, so server and browser render the same.
  const now = new Date(loaderData.now);
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-12 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight">Your licenses</h1>
          <p className="mt-1 text-muted-foreground">Keys, dates and renewal of every license you bought.</p>
        </div>
        <Button asChild>
          <Link to="/pricing">
            <Plus aria-hidden /> Buy More Licenses
          </Link>
        </Button>
      </div>

      <Collapsible className="mt-6 rounded-xl border bg-card px-5 py-3">
        <CollapsibleTrigger className="group flex w-full items-center justify-between gap-2 py-1 text-left font-medium">
          About offline licenses
          <ChevronDown aria-hidden className="size-4 transition-transform group-data-[state=open]:rotate-180" />
        </CollapsibleTrigger>
        <CollapsibleContent>
          <ul className="mt-2 flex list-disc flex-col gap-1.5 pb-2 pl-5 text-sm text-muted-foreground">
            <li>An offline license needs a Windows username or a computer name.</li>
            <li>
              Find them on the computer: <code className="font-mono">whoami</code> or <code className="font-mono">echo %USERNAME%</code> for
              the username, <code className="font-mono">hostname</code> for the computer name.
            </li>
            <li>They can be changed only once.</li>
          </ul>
        </CollapsibleContent>
      </Collapsible>

      {licenses.length === 0 ? (
        <div className="mt-10 flex flex-col items-center gap-4 rounded-xl border border-dashed p-10 text-center">
          <h2 className="text-xl font-semibold">No licenses yet</h2>
          <p className="text-muted-foreground">Choose a plan to get your first license; new customers start with a 7-day free trial.</p>
          <Button asChild>
            <Link to="/pricing">Get Your First License</Link>
          </Button>
        </div>
      ) : (
        <ul className="mt-8 flex flex-col gap-5">
          {licenses.map((license) => (
            <li key={license.id}>
              <LicenseCard license={license} now={now} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Licenses | ForgeKit" },
  { name: "description", content: "Your licenses: keys, dates, offline data and renewal." },
];
