import { useEffect, useEffectEvent, useRef } from "react";
import { useRevalidator } from "react-router";

const CHANNEL = "forgekit-auth";

/** Tells the other tabs that the user signed in or out (called after those actions). */
export function broadcastAuthChange(): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage("changed");
  channel.close();
}

/**
 * Keeps every open tab's idea of the session current without a reload: when the signed-in
 * user changes in this tab, the others are told over a BroadcastChannel and revalidate;
 * a tab that comes back into view revalidates too (the session may have ended meanwhile).
 */
export function useAuthSync(userId: string | null): void {
  const revalidator = useRevalidator();
  const revalidate = useEffectEvent(() => void revalidator.revalidate());
  const previous = useRef(userId);

  useEffect(() => {
    if (previous.current !== userId) {
      previous.current = userId;
      broadcastAuthChange();
    }
  }, [userId]);

  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => revalidate();
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
