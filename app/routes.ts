import { type RouteConfig, index, route } from "@react-router/dev/routes";

// One line per route of the spec (section 2), plus the release-notes feed.
export default [
  index("routes/home.tsx"),
  route("download", "routes/download.tsx"),
  route("pricing", "routes/pricing.tsx"),
  route("contact", "routes/contact.tsx"),
  route("release-notes", "routes/release-notes.tsx"),
  route("release-notes.atom", "routes/release-notes-atom.ts"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("terms-of-service", "routes/terms-of-service.tsx"),
  route("refund-policy", "routes/refund-policy.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("confirm-email", "routes/confirm-email.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("profile", "routes/profile.tsx"),
  route("licenses", "routes/licenses.tsx"),
  route("success", "routes/success.tsx"),
  route("extend-license", "routes/extend-license.tsx"),
  route("admin", "routes/admin.tsx"),
  route("logout", "routes/logout.tsx"),
  route("dev/mailbox", "routes/dev-mailbox.tsx"),
  route("api/webhooks/paddle", "routes/api.webhooks.paddle.ts"),
  route("api/demo/renew", "routes/api.demo.renew.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
