import type { ReactElement } from "react";
import { formatMoney, formatPrice } from "~/domain/billing";
import { formatDate } from "~/domain/format-date";
import { removedFromTeamLine } from "~/domain/license-card";
import { INVITATION_DAYS } from "~/domain/team-invitations";
import { AccountAction, AccountLayout } from "./account-layout.server";
import { LICENSES } from "./customer-email-types.server";
import {
  composeEmail,
  EmailLayout,
  Facts,
  greeting,
  P,
  SiteLink,
  type Brand,
  type EmailMessage,
} from "./layout.server";
import { ActivationSteps } from "./license-emails.server";

/**
 * The team e-mails (docs/product.md): an invitation to take a seat, a seat given, a member removed, the
 * seat count changed (to the owner, with its price), and the team's subscription ended (to every
 * member). The input is the teams service's mail (team-mail.server.ts names the same fields); the
 * invitation and the notices without a license are drawn like account e-mails, the seat e-mail as
 * a license e-mail with its short id.
 */
export type TeamEmailInput = { to: string; name?: string } & (
  | { kind: "invitation"; teamName: string; inviterName: string; acceptUrl: string; expiresAt: Date }
  | { kind: "seat-assigned"; teamName: string; licenseShortId: string }
  | { kind: "removed-from-team"; teamName: string }
  | {
      kind: "seats-changed";
      teamName: string;
      seats: number;
      effect: "now" | "next-renewal" | "cancel-reduction";
      chargedCents: number | null;
      /** What each renewal bills from the next one (the seats × the plan's price), when known. */
      renewalCents?: number | null;
      /** The subscription's currency, which both amounts are in (decision 0072); US dollars when absent. */
      currency?: string;
    }
  | { kind: "team-ended"; teamName: string; reason: "cancelled" | "refunded" | "revoked" }
);

type Of<K extends TeamEmailInput["kind"]> = Extract<TeamEmailInput, { kind: K }> & { brand: Brand };

/** A notice without a license: the product's name, a greeting, the lines, an optional button. */
function Notice({
  brand,
  subject,
  name,
  lines,
  action,
}: {
  brand: Brand;
  subject: string;
  name?: string;
  lines: ReactElement[];
  action?: { label: string; url: string };
}) {
  return (
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting(name ?? "")}</P>
      {lines}
      {action ? <AccountAction label={action.label} url={action.url} /> : null}
    </AccountLayout>
  );
}

function invitation(mail: Of<"invitation">) {
  const { brand } = mail;
  const subject = `${mail.inviterName} invited you to the ${mail.teamName} team on ${brand.productName}`;
  return composeEmail(
    mail.to,
    subject,
    <Notice
      brand={brand}
      subject={subject}
      name={mail.name}
      action={{ label: "Accept the invitation", url: mail.acceptUrl }}
      lines={[
        <P key="1">
          {mail.inviterName} invited you to take a seat of the {mail.teamName} team on {brand.productName}: a license
          the team pays for, on your own account.
        </P>,
        <P key="2">
          Accept with this e-mail address ({mail.to}): log in, or create an account with it. The link is valid for{" "}
          {INVITATION_DAYS} days, until {formatDate(mail.expiresAt)}.
        </P>,
        <P key="3">Not expecting this? Ignore this e-mail: nothing happens unless you accept.</P>,
      ]}
    />,
  );
}

function seatAssigned(mail: Of<"seat-assigned">) {
  const { brand } = mail;
  return composeEmail(
    mail.to,
    `Your ${brand.productName} seat in the ${mail.teamName} team (${mail.licenseShortId})`,
    <EmailLayout
      brand={brand}
      shortId={mail.licenseShortId}
      heading="You have a seat"
      preview={`Your ${brand.productName} seat license ${mail.licenseShortId}, provided by ${mail.teamName}`}
      action={LICENSES}
    >
      <P>{greeting(mail.name ?? "")}</P>
      <P>
        The {mail.teamName} team gave you a seat: a {brand.productName} license provided by the team, which pays for it.
        Its key, offline data and license file are on your licenses page, like any license.
      </P>
      <Facts
        rows={[
          ["License", mail.licenseShortId],
          ["Provided by", mail.teamName],
        ]}
      />
      <ActivationSteps brand={brand} />
    </EmailLayout>,
  );
}

function removed(mail: Of<"removed-from-team">) {
  const { brand } = mail;
  const subject = `${brand.productName}: you were removed from ${mail.teamName}`;
  return composeEmail(
    mail.to,
    subject,
    <Notice
      brand={brand}
      subject={subject}
      name={mail.name}
      lines={[
        // The same words as the member's card on /licenses (decision 0057).
        <P key="1">{removedFromTeamLine(mail.teamName)}</P>,
        <P key="2">
          Your own licenses, if you have any, are not affected: <SiteLink brand={brand} path="/licenses" />
        </P>,
      ]}
    />,
  );
}

function seatsChanged(mail: Of<"seats-changed">) {
  const { brand } = mail;
  const subject =
    mail.effect === "now"
      ? `${brand.productName}: the ${mail.teamName} team now has ${mail.seats} seats`
      : mail.effect === "next-renewal"
        ? `${brand.productName}: the ${mail.teamName} team renews with ${mail.seats} seats`
        : `${brand.productName}: the ${mail.teamName} team keeps its ${mail.seats} seats`;
  const said = {
    now: `The ${mail.teamName} team now has ${mail.seats} seats. The added seats are charged for the rest of the current period; the invoice is in your billing history.`,
    "next-renewal": `The ${mail.teamName} team keeps its seats until its next renewal, then renews with ${mail.seats} seats. Nothing is charged now.`,
    "cancel-reduction": `The reduction you scheduled was cancelled: the ${mail.teamName} team renews with its ${mail.seats} seats.`,
  }[mail.effect];
  const rows: [string, string][] = [["Seats", String(mail.seats)]];
  // What was charged is an amount with its cents, as on /billing and the invoice; a price may drop ".00".
  const currency = mail.currency ?? "USD";
  if (mail.chargedCents !== null) rows.push(["Charged now (prorated)", formatMoney(mail.chargedCents, currency)]);
  if (mail.renewalCents != null) rows.push(["Each renewal", formatPrice(mail.renewalCents, currency)]);
  return composeEmail(
    mail.to,
    subject,
    <Notice
      brand={brand}
      subject={subject}
      name={mail.name}
      action={{ label: "Open my team", url: `${brand.publicUrl}/team` }}
      lines={[
        <P key="1">{said}</P>,
        <Facts key="2" rows={rows} />,
        <P key="3">
          Your billing history: <SiteLink brand={brand} path="/billing" />
        </P>,
      ]}
    />,
  );
}

function teamEnded(mail: Of<"team-ended">) {
  const { brand } = mail;
  const subject = `${brand.productName}: the ${mail.teamName} team's subscription ended`;
  const how = { cancelled: "ended", refunded: "was refunded", revoked: "was revoked" }[mail.reason];
  return composeEmail(
    mail.to,
    subject,
    <Notice
      brand={brand}
      subject={subject}
      name={mail.name}
      lines={[
        <P key="1">
          The {mail.teamName} team&apos;s {brand.productName} subscription {how}, and with it the seat license it
          provided you. Its key no longer activates {brand.productName}.
        </P>,
        <P key="2">
          Ask the team&apos;s owner if you need it back, or buy a license of your own:{" "}
          <SiteLink brand={brand} path="/pricing" />
        </P>,
      ]}
    />,
  );
}

/** One team e-mail, rendered to HTML and plain text with its subject. */
export function teamEmail(brand: Brand, mail: TeamEmailInput): Promise<EmailMessage> {
  switch (mail.kind) {
    case "invitation":
      return invitation({ ...mail, brand });
    case "seat-assigned":
      return seatAssigned({ ...mail, brand });
    case "removed-from-team":
      return removed({ ...mail, brand });
    case "seats-changed":
      return seatsChanged({ ...mail, brand });
    case "team-ended":
      return teamEnded({ ...mail, brand });
  }
}
