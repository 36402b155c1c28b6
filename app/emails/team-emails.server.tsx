import { formatDate } from "~/domain/format-date";
import { INVITATION_VALID_DAYS, invitationPath, TEAM_PATH } from "~/domain/team-links";
import { AccountAction, AccountLayout } from "./account-layout.server";
import { LICENSES } from "./customer-email-types.server";
import {
  composeEmail,
  EmailLayout,
  Facts,
  greeting,
  LicenseKey,
  P,
  siteUrl,
  SiteLink,
  type Brand,
  type EmailMessage,
} from "./layout.server";
import { ActivationSteps } from "./license-emails.server";

/**
 * The team e-mails (issue 30): an invitation to take a seat, a seat given, a member removed, the
 * seat count changed (to the owner, with its price), and the team's subscription ended (to every
 * member). The invitation has no license yet and is drawn like an account e-mail; the others are
 * about a seat license and name its short id.
 */

export interface TeamInvitationInput {
  brand: Brand;
  teamName: string;
  /** Who invited: the owner's or manager's name (or e-mail address when they have no name). */
  inviterName: string;
  planName: string;
  token: string;
  expiresAt: Date;
}

export function teamInvitationEmail(to: string, input: TeamInvitationInput): Promise<EmailMessage> {
  const { brand } = input;
  const subject = `${input.inviterName} invited you to the ${input.teamName} team on ${brand.productName}`;
  const url = siteUrl(brand, invitationPath(input.token));
  return composeEmail(
    to,
    subject,
    <AccountLayout brand={brand} preview={subject}>
      <P>{greeting("")}</P>
      <P>
        {input.inviterName} invited you to take a seat of the {input.teamName} team on {brand.productName}: a{" "}
        {input.planName} license that the team pays for.
      </P>
      <P>
        Accept with this e-mail address ({to}): sign in, or create an account with it. The link is valid for{" "}
        {INVITATION_VALID_DAYS} days, until {formatDate(input.expiresAt)}.
      </P>
      <AccountAction label="Accept the invitation" url={url} />
      <P>Not expecting this? Ignore this e-mail: nothing happens until the invitation is accepted.</P>
    </AccountLayout>,
  );
}

/** A seat license as the member's e-mails show it. */
export interface SeatLicenseView {
  shortId: string;
  planName: string;
  licenseKey: string;
  endDate: Date;
}

export interface SeatAssignedInput {
  brand: Brand;
  name: string;
  teamName: string;
  license: SeatLicenseView;
}

export function seatAssignedEmail(to: string, input: SeatAssignedInput): Promise<EmailMessage> {
  const { brand, license } = input;
  return composeEmail(
    to,
    `Your ${brand.productName} seat in the ${input.teamName} team (${license.shortId})`,
    <EmailLayout
      brand={brand}
      shortId={license.shortId}
      heading="You have a seat"
      preview={`Your ${brand.productName} seat license ${license.shortId}, provided by ${input.teamName}`}
      action={LICENSES}
    >
      <P>{greeting(input.name)}</P>
      <P>
        The {input.teamName} team gave you a seat: a {brand.productName} license provided by the team. The team pays for
        it; you can use it on your machines like any license.
      </P>
      <Facts
        rows={[
          ["Plan", license.planName],
          ["Provided by", input.teamName],
          ["Valid until", formatDate(license.endDate)],
        ]}
      />
      <LicenseKey value={license.licenseKey} />
      <ActivationSteps brand={brand} />
    </EmailLayout>,
  );
}

export interface RemovedFromTeamInput {
  brand: Brand;
  name: string;
  teamName: string;
  shortId: string;
}

export function removedFromTeamEmail(to: string, input: RemovedFromTeamInput): Promise<EmailMessage> {
  const { brand } = input;
  return composeEmail(
    to,
    `You were removed from the ${input.teamName} team on ${brand.productName} (${input.shortId})`,
    <EmailLayout
      brand={brand}
      shortId={input.shortId}
      heading="You were removed from the team"
      preview={`Your seat license ${input.shortId} was revoked: removed from team`}
      action={LICENSES}
    >
      <P>{greeting(input.name)}</P>
      <P>
        You were removed from the {input.teamName} team, and the seat license it provided ({input.shortId}) was revoked
        with the reason &quot;removed from team&quot;. Its key no longer activates {brand.productName}.
      </P>
      <P>
        If you think this is a mistake, ask the team&apos;s owner. Your own licenses, if you have any, are not affected.
      </P>
    </EmailLayout>,
  );
}

export interface SeatsChangedInput {
  brand: Brand;
  name: string;
  teamName: string;
  /** The team subscription's license (the owner's short id for the team's purchase). */
  shortId: string;
  planName: string;
  from: number;
  to: number;
  /** More seats: the prorated amount charged now ("$45.00"); fewer seats: null (nothing charged). */
  chargedNow: string | null;
  /** When the new count takes effect: now (more seats) or at the next renewal (fewer). */
  effectiveOn: Date;
  /** The next renewal, for every seat: "$450.00" on this date. */
  renewal: { at: Date; amount: string };
}

export function seatsChangedEmail(to: string, input: SeatsChangedInput): Promise<EmailMessage> {
  const { brand } = input;
  const more = input.to > input.from;
  const rows: [string, string][] = [
    ["Team", input.teamName],
    ["Plan", input.planName],
    ["Seats", `${input.from} → ${input.to}`],
    [
      more ? "Charged now (prorated)" : "Takes effect",
      more ? (input.chargedNow ?? "nothing") : formatDate(input.effectiveOn),
    ],
    ["Next renewal", `${formatDate(input.renewal.at)} for ${input.renewal.amount}`],
  ];
  return composeEmail(
    to,
    more
      ? `${brand.productName}: the ${input.teamName} team now has ${input.to} seats`
      : `${brand.productName}: the ${input.teamName} team renews with ${input.to} seats`,
    <EmailLayout
      brand={brand}
      shortId={input.shortId}
      heading={more ? "Seats added" : "Seats reduced from the next renewal"}
      preview={`${input.teamName}: ${input.from} → ${input.to} seats`}
      action={{ label: "Open my team", path: TEAM_PATH }}
    >
      <P>{greeting(input.name)}</P>
      <P>
        {more
          ? `The ${input.teamName} team now has ${input.to} seats. The added seats are charged for the rest of the current period; the invoice is in your billing history.`
          : `The ${input.teamName} team keeps its ${input.from} seats until ${formatDate(input.effectiveOn)}, then renews with ${input.to}.`}
      </P>
      <Facts rows={rows} />
    </EmailLayout>,
  );
}

export interface TeamSubscriptionEndedInput {
  brand: Brand;
  name: string;
  teamName: string;
  /** The member's seat license. */
  shortId: string;
  endedOn: Date;
}

export function teamSubscriptionEndedEmail(to: string, input: TeamSubscriptionEndedInput): Promise<EmailMessage> {
  const { brand } = input;
  return composeEmail(
    to,
    `The ${input.teamName} team's ${brand.productName} subscription ended (${input.shortId})`,
    <EmailLayout
      brand={brand}
      shortId={input.shortId}
      heading="Your team's subscription ended"
      preview={`Your seat license ${input.shortId} from ${input.teamName} no longer works`}
      action={LICENSES}
    >
      <P>{greeting(input.name)}</P>
      <P>
        The {input.teamName} team&apos;s {brand.productName} subscription ended on {formatDate(input.endedOn)}, and with
        it the seat license it provided you ({input.shortId}). Its key no longer activates {brand.productName}.
      </P>
      <P>
        Ask the team&apos;s owner if you need it back, or buy a license of your own on the pricing page:{" "}
        <SiteLink brand={brand} path="/pricing" />
      </P>
    </EmailLayout>,
  );
}
