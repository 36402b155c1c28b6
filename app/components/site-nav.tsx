import type { SessionUser } from "~/server/root-session.server";
export function SiteNav(_props: { user: SessionUser | null; role: "admin" | "user"; productName?: string }) {
  return <nav />;
}
