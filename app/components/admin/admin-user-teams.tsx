import { Link } from "react-router";
import type { AdminTeamMatch, AdminUserTeamView } from "~/domain/admin-team";

const link = "text-primary underline underline-offset-4";

/** The teams a user belongs to, on their admin page: name, role, seat. */
export function AdminUserTeams({ teams }: { teams: AdminUserTeamView[] }) {
  if (teams.length === 0) return <p className="text-muted-foreground">Not in any team.</p>;
  return (
    <ul className="flex flex-col gap-1 text-sm" aria-label="Teams">
      {teams.map((team) => (
        <li key={team.id} data-testid="admin-user-team">
          <Link to={`/admin/teams/${team.id}`} className={link}>
            {team.name}
          </Link>{" "}
          <span className="text-muted-foreground">
            — {team.role}
            {team.hasSeat ? ", has a seat" : ""} · {team.seatsPaid} seats
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The teams an admin search found by name, above the users it found. */
export function AdminTeamMatches({ term, teams }: { term: string; teams: AdminTeamMatch[] }) {
  if (teams.length === 0) return null;
  return (
    <section aria-labelledby="team-matches" className="rounded-lg border p-4">
      <h3 id="team-matches" className="font-medium">
        Teams matching “{term}”
      </h3>
      <ul className="mt-2 flex flex-col gap-1 text-sm">
        {teams.map((team) => (
          <li key={team.id} data-testid="admin-team-match">
            <Link to={`/admin/teams/${team.id}`} className={link}>
              {team.name}
            </Link>{" "}
            <span className="text-muted-foreground">
              — owner {team.ownerEmail}, {team.seatsPaid} seats
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
