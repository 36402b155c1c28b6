import type { RequestHandler } from "express";
import { hasDisallowedCharacters, NOT_ALLOWED_CHARACTERS_MESSAGE } from "../app/domain/text-input";

/** Parameters checked by their own rule (a bad redirect target falls back to "/"). */
const OWN_RULE = new Set(["redirectTo"]);

/**
 * Query strings reach loaders as text (the admin search, a reset token, an e-mail address):
 * a control character or lone surrogate in one answers 400 with a clear message instead of
 * reaching the database (PostgreSQL refuses NUL, which ended in a 500).
 */
export function queryGuard(): RequestHandler {
  return (req, res, next) => {
    const at = req.originalUrl.indexOf("?");
    if (at === -1) {
      next();
      return;
    }
    for (const [name, value] of new URLSearchParams(req.originalUrl.slice(at + 1))) {
      if (OWN_RULE.has(name)) continue;
      if (hasDisallowedCharacters(name) || hasDisallowedCharacters(value)) {
        res.status(400).set("Cache-Control", "no-store");
        if (req.path.startsWith("/api/")) res.json({ error: NOT_ALLOWED_CHARACTERS_MESSAGE });
        else res.type("text/plain").send(`The address is not valid: ${NOT_ALLOWED_CHARACTERS_MESSAGE}`);
        return;
      }
    }
    next();
  };
}
