import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { CardCell, CardRow, CardTable } from "~/components/ui/card-table";
import type { AdminTeamView } from "~/domain/admin-team";
import { formatMoney } from "~/domain/billing";
import { formatDate } from "~/domain/format-date";

const link = "text-primary underline underline-offset-4";

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The admin's page of one team (docs/product.md): its facts, seats, members, every invitation and its payments. */
export function AdminTeamPage({ team }: { team: AdminTeamView }) {
  const facts: [string, React.ReactNode][] = [
    [
      "Owner",
      <Link key="o" to={`/admin/users/${team.ownerId}`} className={link}>
        {team.ownerEmail ?? team.ownerId}
      </Link>,
    ],
    ["Plan", team.planType],
    [
      "Seats",
      `${team.seats.assigned} assigned, ${team.seats.pending} invited, ${team.seats.paid} paid${team.seats.nextRenewal !== null ? `, ${team.seats.nextRenewal} from the next renewal` : ""}`,
    ],
    [
      "Subscription",
      team.subscription ? `${team.subscription.label} until ${formatDate(team.subscription.endDate)}` : "None",
    ],
    [
      "Subscription id",
      <span key="s" className="font-mono break-all">
        {team.subscriptionId}
      </span>,
    ],
    ["Domain seats", team.domainClaim && team.domain ? `On (@${team.domain})` : "Off"],
    ["Created", formatDate(team.createdAt)],
  ];
  return (
    <div className="flex flex-col gap-8">
      <header>
        <p className="text-sm text-muted-foreground">Team</p>
        <h1 className="text-2xl font-semibold [overflow-wrap:anywhere]">{team.name}</h1>
      </header>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 rounded-lg border p-4 text-sm">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <TeamMembers team={team} />
      <TeamInvitations team={team} />
      <TeamPayments team={team} />
    </div>
  );
}

function TeamMembers({ team }: { team: AdminTeamView }) {
  return (
    <Section title="Members" id="team-members">
      <CardTable
        caption="Members"
        className="rounded-lg border"
        columns={[{ label: "Member" }, { label: "Role" }, { label: "Seat license" }, { label: "Since" }]}
      >
        {team.members.map((member) => (
          <CardRow key={member.userId}>
            <CardCell label="Member" rowHeader>
              <Link to={`/admin/users/${member.userId}`} className={link}>
                {member.email}
              </Link>{" "}
              {member.name ? <span className="text-muted-foreground">{member.name}</span> : null}
            </CardCell>
            <CardCell label="Role">
              <Badge variant="outline">{member.role}</Badge>
            </CardCell>
            <CardCell label="Seat license">
              {member.seatShortId ? <span className="font-mono">{member.seatShortId}</span> : "No seat"}
            </CardCell>
            <CardCell label="Since">{formatDate(member.since)}</CardCell>
          </CardRow>
        ))}
      </CardTable>
    </Section>
  );
}

function TeamInvitations({ team }: { team: AdminTeamView }) {
  return (
    <Section title="Invitations" id="team-invitations">
      {team.invitations.length === 0 ? (
        <p className="text-muted-foreground">No invitations.</p>
      ) : (
        <CardTable
          caption="Invitations"
          className="rounded-lg border"
          columns={[{ label: "E-mail" }, { label: "State" }, { label: "Sent" }, { label: "Valid until" }]}
        >
          {team.invitations.map((invitation) => (
            <CardRow key={invitation.id}>
              <CardCell label="E-mail" rowHeader>
                {invitation.email}
              </CardCell>
              <CardCell label="State">{invitation.state}</CardCell>
              <CardCell label="Sent">{formatDate(invitation.createdAt)}</CardCell>
              <CardCell label="Valid until">{formatDate(invitation.expiresAt)}</CardCell>
            </CardRow>
          ))}
        </CardTable>
      )}
    </Section>
  );
}

function TeamPayments({ team }: { team: AdminTeamView }) {
  return (
    <Section title="Payments" id="team-payments">
      {team.payments.length === 0 ? (
        <p className="text-muted-foreground">No payments.</p>
      ) : (
        <CardTable
          caption="Payments"
          className="rounded-lg border"
          columns={[{ label: "Transaction" }, { label: "Kind" }, { label: "Amount" }, { label: "Billed" }]}
        >
          {team.payments.map((payment) => (
            <CardRow key={payment.id}>
              <CardCell label="Transaction" rowHeader>
                <Link to={`/admin/users/${team.ownerId}/invoices/${payment.id}`} className={`${link} font-mono`}>
                  {payment.id}
                </Link>
              </CardCell>
              <CardCell label="Kind">{payment.kind}</CardCell>
              <CardCell label="Amount">
                {formatMoney(payment.amountCents, payment.currency)}
                {payment.refundedCents > 0 ? ` (refunded ${formatMoney(payment.refundedCents, payment.currency)})` : ""}
              </CardCell>
              <CardCell label="Billed">{formatDate(payment.billedAt)}</CardCell>
            </CardRow>
          ))}
        </CardTable>
      )}
    </Section>
  );
}
