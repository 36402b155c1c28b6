import { useEffect, useRef, useState } from "react";
import { CHECKOUT_ERRORS, CHECKOUT_ERROR_TITLE, fromPaddleEvent, type CheckoutEvent, type CheckoutSystem } from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import type { PublicConfig } from "~/server/env.server";

/**
 * The page's overlay checkout. Paddle mode loads Paddle.js (from Paddle's CDN, once per page)
 * with the client token and reports its events to `onEvent`; demo mode has no script to load
 * (the page renders the in-site demo dialog for the server's checkout itself).
 */
export function useCheckout(config: Pick<PublicConfig, "paymentProvider" | "paddleClientToken" | "paddleEnvironment">, onEvent: (event: CheckoutEvent) => void) {
  const [system, setSystem] = useState<CheckoutSystem>({ status: "loading" });
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  useEffect(() => {
    if (config.paymentProvider === "demo") {
      setSystem({
        status: "ready",
        opener: {
          open: () => {
            throw new Error("the demo checkout is a dialog of the page, not an overlay");
          },
        },
      });
      return;
    }
    let cancelled = false;
    const failed = () => {
      if (cancelled) return;
      setSystem({ status: "failed" });
      showToast({ title: CHECKOUT_ERROR_TITLE, description: CHECKOUT_ERRORS.initFailed, variant: "destructive" });
    };
    if (!config.paddleClientToken) {
      failed();
      return;
    }
    import("@paddle/paddle-js")
      .then(({ initializePaddle }) =>
        initializePaddle({
          environment: config.paddleEnvironment,
          token: config.paddleClientToken!,
          eventCallback: (event) => {
            const mapped = fromPaddleEvent(event);
            if (mapped) onEventRef.current(mapped);
          },
        }),
      )
      .then((paddle) => {
        if (!paddle) return failed();
        if (!cancelled) setSystem({ status: "ready", opener: { open: (request) => paddle.Checkout.open(request) } });
      })
      .catch(failed);
    return () => {
      cancelled = true;
    };
  }, [config.paymentProvider, config.paddleClientToken, config.paddleEnvironment]);

  return { system };
}
