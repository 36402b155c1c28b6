import { useEffect, useEffectEvent, useRef } from "react";
import { useRevalidator } from "react-router";
import { showToast } from "~/lib/toast";

const CHANNEL = "forgekit-auth";

/** What a tab that was signed out by another tab (or while hidden) is told. */
const SIGNED_OUT_ELSEWHERE = {
  title: "You were signed out in another tab",
  description: "Log in again to carry on.",
} as const;

type AuthMessage = "changed" | "signed-out";

/** Tells the other tabs that the user signed in or out (called after those actions). */
export function broadcastAuthChange(message: AuthMessage = "changed"): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(message);
  channel.close();
}

/**
 * Keeps every open tab's idea of the session current without a reload: when the signed-in
 * user changes in this tab, the others are told over a BroadcastChannel and revalidate;
 * a tab that comes back into view revalidates too (the session may have ended meanwhile).
 * A tab whose user was signed out that way says so, so its person knows why they are at the
 * login page (the tab that signed out says nothing more than its own toast).
 */
export function useAuthSync(userId: string | null): void {
  const revalidator = useRevalidator();
  const revalidate = useEffectEvent(() => void revalidator.revalidate());
  const previous = useRef(userId);
  // Another tab said it signed out; this tab's next change to "signed out" is that one.
  const toldSignedOut = useRef(false);

  useEffect(() => {
    if (previous.current === userId) return;
    const signedOutElsewhere = previous.current !== null && userId === null && toldSignedOut.current;
    previous.current = userId;
    toldSignedOut.current = false;
    if (signedOutElsewhere) showToast(SIGNED_OUT_ELSEWHERE);
    else broadcastAuthChange(userId === null ? "signed-out" : "changed");
  }, [userId]);

  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event: MessageEvent<AuthMessage>) => {
      if (event.data === "signed-out") toldSignedOut.current = true;
      revalidate();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") revalidate();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      channel.close();
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);
}
