import type { RequestHandler } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { badRouteParam } from "../app/domain/route-params";

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children: RouteNode[];
}

/** The build's route manifest as the nested routes matchRoutes reads, and where its parameters start. */
export function routeTree(build: ServerBuild): { tree: RouteNode[]; prefixes: string[] } {
  const nodes = new Map<string, RouteNode>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    nodes.set(route.id, {
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: [],
    });
  }
  const roots: RouteNode[] = [];
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  // The literal start of each full path with a parameter ("/admin/users/"): other paths skip matching.
  const fullPath = (id: string | undefined): string =>
    id ? `${fullPath(build.routes[id]?.parentId)}/${build.routes[id]?.path ?? ""}`.replace(/\/+/g, "/") : "";
  const prefixes = Object.keys(build.routes)
    .map((id) => fullPath(id))
    .filter((p) => p.includes(":"))
    .map((p) => p.slice(0, p.indexOf(":")).toLowerCase());
  return { tree: roots, prefixes };
}

/** The path decoded (the HTTP listener refused malformed encodings before). */
function decoded(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/**
 * Before React Router: a route parameter of the wrong shape (`/admin/users/not-a-uuid/invoices/x`,
 * `/licenses/x/file`; shapes in app/domain/route-params.ts) answers 404, for every route with a
 * parameter, page, data request (`….data`) or resource route alike, so no loader or action sends
 * it to the database (docs/security.md). The route is matched as React Router matches it.
 */
export function routeParams(build: () => Promise<ServerBuild>): RequestHandler {
  const trees = new WeakMap<ServerBuild, ReturnType<typeof routeTree>>();
  return (req, res, next) => {
    build()
      .then((current) => {
        let routes = trees.get(current);
        if (!routes) trees.set(current, (routes = routeTree(current)));
        // Compared as React Router compares it: decoded (`/%61dmin/…` is `/admin/…`) and in any case.
        const lower = decoded(req.path).toLowerCase();
        if (!routes.prefixes.some((prefix) => lower.startsWith(prefix))) return next();
        const pathname = req.path.endsWith(".data") ? req.path.slice(0, -".data".length) || "/" : req.path;
        const matches = matchRoutes(routes.tree as RouteObject[], pathname);
        const leaf = matches?.[matches.length - 1];
        const bad = badRouteParam(leaf?.params ?? {});
        if (bad === null) return next();
        // A page asked for as a page: the root's middleware answers the site's 404 page before any loader.
        const page = !req.path.endsWith(".data") && (req.method === "GET" || req.method === "HEAD");
        if (page && current.routes[leaf!.route.id!]?.module.default) return next();
        res
          .status(404)
          .set("Cache-Control", "no-store")
          .type("text/plain")
          .send("Not found: there is nothing at this address.");
      })
      .catch(next);
  };
}
