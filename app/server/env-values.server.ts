import { createPrivateKey, createPublicKey } from "node:crypto";
import { z } from "zod";

// The kinds of value the configuration's variables take (env.server.ts's schema).

export const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

export const urlString = z.url({ message: "must be an absolute URL (http:// or https://)" });

/** An explicit yes: only "true" or "1" turns it on. */
export const flag = z
  .enum(["true", "false", "1", "0", ""])
  .default("false")
  .transform((value) => value === "true" || value === "1");

/** A PEM private key that is Ed25519 (what the desktop API signs with). */
export const ed25519PrivateKey = z.string().refine(
  (pem) => {
    try {
      return createPrivateKey(pem.replace(/\\n/g, "\n")).asymmetricKeyType === "ed25519";
    } catch {
      return false;
    }
  },
  { message: "must be an Ed25519 private key in PEM (openssl genpkey -algorithm ed25519)" },
);

/** One or more PEM public keys, each Ed25519. */
export const publishedKeys = z.string().refine(
  (text) => {
    const blocks = pemBlocks(text.replace(/\\n/g, "\n"));
    return (
      blocks.length > 0 &&
      blocks.every((pem) => {
        try {
          return createPublicKey(pem).asymmetricKeyType === "ed25519";
        } catch {
          return false;
        }
      })
    );
  },
  { message: "must be one or more Ed25519 public keys in PEM (openssl pkey -pubout)" },
);

/** The PEM blocks of a text (several keys may be given one after another). */
export function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
}

export const secret = z.string().min(16, { message: "must be at least 16 characters long" });
