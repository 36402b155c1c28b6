import { pageTitle } from "~/lib/meta";
import { data } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { getEnv } from "~/server/env.server";
import { listDevMails } from "~/server/mail/mailer.server";
import { flushMail } from "~/server/mail/outbox.server";
import type { Route } from "./+types/dev-mailbox";

/** Embedded mode's mailbox: every e-mail the site "sent", with clickable links. Absent in production. */
export async function loader() {
  const env = getEnv();
  if (!env.embedded || env.SMTP_URL) throw data("Not found", { status: 404 });
  // E-mails leave after the request that queued them: list them once this process has sent them.
  await flushMail();
  const mails = await listDevMails(100);
  return { mails: mails.map((m) => ({ ...m, created_at: m.created_at.toISOString() })) };
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  const { mails } = loaderData;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">Dev mailbox</h1>
      <p className="mt-2 text-muted-foreground">
        Without <code className="font-mono text-sm">SMTP_URL</code>, e-mails are kept here instead of sent. Newest
        first.
      </p>
      {mails.length === 0 ? <p className="mt-8 text-muted-foreground">No e-mails yet.</p> : null}
      <ol className="mt-8 flex flex-col gap-6">
        {mails.map((mail) => (
          <li key={mail.id}>
            <Card data-testid="dev-mail">
              <CardHeader>
                <CardTitle className="text-lg">{mail.subject}</CardTitle>
                <CardDescription>
                  To <span data-testid="mail-to">{mail.to}</span> · from {mail.from} ·{" "}
                  <time dateTime={mail.created_at}>{mail.created_at.replace("T", " ").slice(0, 19)} UTC</time>
                </CardDescription>
              </CardHeader>
              <CardContent>
                <MailText text={mail.text} />
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The plain-text body with its URLs as links. */
function MailText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return (
    <pre className="whitespace-pre-wrap break-words font-sans text-sm leading-relaxed">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part} className="text-primary underline underline-offset-4">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Dev mailbox"),
  { name: "robots", content: "noindex" },
];
