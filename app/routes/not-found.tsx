import { pageTitle } from "~/lib/meta";
import { data } from "react-router";
import { NotFoundPage } from "~/components/not-found-page";
import type { Route } from "./+types/not-found";

/** Any other path: the 404 page, with HTTP status 404. */
export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundPage />;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  pageTitle(matches, "Page not found"),
  { name: "description", content: "The page you are looking for does not exist." },
  { name: "robots", content: "noindex" },
];
