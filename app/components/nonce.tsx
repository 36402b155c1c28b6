import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");

/** Provides the CSP nonce to the document's inline scripts (server only; the browser hides it). */
export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
