import { Link, useLocation } from "react-router";
import { Button } from "./ui/button";

/** The site's 404 page: the "*" route, and the root error boundary's answer to any 404 (a wrong-shaped id). */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-5 px-6 py-24 text-center">
      <p className="font-mono text-sm text-primary">404</p>
      <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="text-muted-foreground">
        There is nothing at{" "}
        <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono text-sm text-foreground">
          {location.pathname}
        </code>
        . It may have moved, or the address may be mistyped.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to="/">Return home</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/download">Download</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/pricing">Pricing</Link>
        </Button>
      </div>
    </section>
  );
}
