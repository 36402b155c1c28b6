import "./lib/zod-without-eval";
import { useRootData } from "~/components/use-root-data";
import type { RootData } from "~/domain/views";
import { badRouteParam } from "~/domain/route-params";
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import { SiteStyles } from "./components/inline-styles";
import { useNonce } from "./components/nonce";
import { SiteFooter } from "./components/site-footer";
import { SiteNav } from "./components/site-nav";
import { NavigationProgress } from "./components/navigation-progress";
import { NotFoundPage } from "./components/not-found-page";
import { useAuthSync } from "./components/use-auth-sync";
import { useFlashToast } from "./components/use-flash-toast";
import { LazyToaster } from "./components/lazy-toaster";
import { dismissStaleToasts } from "./lib/toast";
import { NoScriptNotice } from "./components/no-script-notice";
import { getRootSession } from "./http/root-session.server";

/**
 * A page's route parameter of the wrong shape (`/admin/users/not-a-uuid`) is the site's 404 page,
 * before any loader runs (so none sends it to the database); data requests and resource routes get
 * their plain 404 from server/route-params.ts before React Router.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ params }) => {
    if (badRouteParam(params) !== null) throw data(null, { status: 404 });
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { headers, ...session } = await getRootSession(request);
  return data<RootData>({ ...session, publicConfig: context.publicConfig }, { headers });
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.ico", sizes: "48x48" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
  { rel: "alternate", type: "application/atom+xml", href: "/release-notes.atom", title: "Release notes" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRootData();
  return (
    <html lang="en" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#15171e" />
        <Meta />
        <Links />
        <SiteStyles />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-primary focus:px-4 focus:py-2 focus:text-primary-foreground"
        >
          Skip to content
        </a>
        <NavigationProgress />
        <SiteNav
          user={data?.user ?? null}
          role={data?.role ?? "user"}
          runsTeam={data?.runsTeam ?? false}
          productName={data?.publicConfig.productName}
        />
        <main id="main" className="flex-1">
          {/* Without JavaScript no toast appears: the message of the action that led here is printed. */}
          <NoScriptNotice toast={data?.toast} className="mx-4 mt-6 sm:mx-auto sm:w-full sm:max-w-3xl" />
          {children}
        </main>
        <SiteFooter productName={data?.publicConfig.productName} signedIn={Boolean(data?.user)} />
        <LazyToaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  useFlashToast(loaderData.toast);
  useAuthSync(loaderData.user?.id ?? null);
  // A failure of the page left behind is not carried onto the next one (decision 0057).
  const { pathname } = useLocation();
  useEffect(() => dismissStaleToasts(pathname), [pathname]);
  useEffect(() => {
    // Marks the page as interactive (browser tests wait for it before clicking).
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <>
        <title>Page not found</title>
        <NotFoundPage />
      </>
    );
  }
  let title = "Something went wrong";
  let message = "An unexpected error occurred. Please try again in a moment.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Page not found";
      message = "The page you are looking for does not exist.";
    } else {
      title = `${error.status} ${error.statusText || "Error"}`;
      message = typeof error.data === "string" && error.data ? error.data : message;
    }
  }
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-6 py-24 text-center">
      <title>{`${title}`}</title>
      <h1 className="text-3xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">{message}</p>
      <a href="/" className="text-primary underline underline-offset-4">
        Return home
      </a>
    </section>
  );
}
