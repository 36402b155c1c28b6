import { publicPageMeta } from "~/lib/meta";
import { Copy, Mail } from "~/components/lucide-icons";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { showToast } from "~/lib/toast";
import { useRootData } from "~/components/use-root-data";
import type { Route } from "./+types/contact";

export default function Contact() {
  const email = useRootData()?.publicConfig.supportEmail ?? "";
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(email);
      showToast({
        title: "Copied",
        description: "Support e-mail address copied to the clipboard.",
        variant: "success",
      });
    } catch {
      showToast({
        title: "Copy failed",
        description: `Select the address and copy it: ${email}`,
        variant: "destructive",
      });
    }
  };
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Contact Us</h1>
      <p className="mt-2 text-muted-foreground">Questions about the tool, your licenses or a payment? Write to us.</p>
      <Card className="mt-8">
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">Support e-mail</h2>
          </CardTitle>
          <CardDescription>We usually reply within 24 hours on business days.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <a
            href={`mailto:${email}`}
            className="inline-flex min-w-0 items-center gap-2 break-all rounded-md border bg-background/60 px-3 py-2 font-mono text-sm hover:border-primary"
          >
            <Mail aria-hidden className="size-4 shrink-0 text-primary" />
            <span data-testid="support-email">{email}</span>
          </a>
          <Button type="button" variant="secondary" onClick={copy} aria-label="Copy e-mail address">
            <Copy aria-hidden />
            Copy
          </Button>
        </CardContent>
      </Card>
      <section aria-labelledby="what-to-include" className="mt-10">
        <h2 id="what-to-include" className="text-xl font-semibold">
          To help us answer quickly
        </h2>
        <ul className="mt-3 flex list-disc flex-col gap-1.5 pl-5 text-muted-foreground">
          <li>the e-mail address of your account or license,</li>
          <li>the version of the tool (Help → About) and of Windows,</li>
          <li>what you did, what you expected, and what happened instead — a screenshot helps.</li>
        </ul>
        <p className="mt-4 text-muted-foreground">
          Looking for something else? See the{" "}
          <Link to="/release-notes" className="text-primary underline underline-offset-4">
            release notes
          </Link>{" "}
          or the{" "}
          <Link to="/refund-policy" className="text-primary underline underline-offset-4">
            Refund Policy
          </Link>
          .
        </p>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta(matches, {
    path: "/contact",
    title: "Contact Us",
    description: "Write to support; we usually reply within 24 hours on business days.",
  });
