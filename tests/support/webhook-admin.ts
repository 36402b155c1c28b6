import * as webhooksPage from "~/routes/admin/webhooks";
import { throughAdminGuard } from "./admin-route";
import { call, formRequest, getRequest } from "./route-call";

/** The admin webhooks page's action and loader as an admin (or anyone with `cookie`) calls them. */
export function webhookAdmin(cookie: () => string) {
  /** A form post with repeated fields (events). */
  const post = (fields: [string, string][], as = cookie()) => {
    const request = formRequest("/admin/webhooks", {}, as);
    const body = new URLSearchParams(fields);
    return call(() =>
      throughAdminGuard(
        webhooksPage.action,
        new Request(request.url, { method: "POST", headers: request.headers, body }),
      ),
    );
  };
  return {
    post,
    create: (url: string, events: string[]) =>
      post([["intent", "create-endpoint"], ["url", url], ...events.map((e): [string, string] => ["events", e])]),
    intent: (intent: string, fields: Record<string, string>) => post([["intent", intent], ...Object.entries(fields)]),
    page: () => call(() => throughAdminGuard(webhooksPage.loader, getRequest("/admin/webhooks", cookie()))),
  };
}
