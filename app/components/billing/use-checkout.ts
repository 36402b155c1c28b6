import { useEffect, useEffectEvent, useState } from "react";
import {
  CHECKOUT_ERRORS,
  CHECKOUT_ERROR_TITLE,
  fromPaddleEvent,
  type CheckoutEvent,
  type CheckoutSystem,
} from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import type { PublicConfig } from "~/domain/views";

/**
 * The page's overlay checkout. Paddle mode loads Paddle.js (from Paddle's CDN, once per page)
 * with the client token and reports its events to `onEvent`; demo mode has no script to load
 * (the page renders the in-site demo dialog for the server's checkout itself).
 */
export function useCheckout(
  config: Pick<PublicConfig, "paymentProvider" | "paddleClientToken" | "paddleEnvironment">,
  onEvent: (event: CheckoutEvent) => void,
) {
  const demo = config.paymentProvider === "demo";
  const [system, setSystem] = useState<CheckoutSystem>(() =>
    demo
      ? { status: "ready", opener: DEMO_OPENER }
      : config.paddleClientToken
        ? { status: "loading" }
        : { status: "failed" },
  );
  const report = useEffectEvent(onEvent);

  useEffect(() => {
    if (demo) return;
    let cancelled = false;
    const failed = () => {
      if (cancelled) return;
      setSystem({ status: "failed" });
      showToast({ title: CHECKOUT_ERROR_TITLE, description: CHECKOUT_ERRORS.initFailed, variant: "destructive" });
    };
    const token = config.paddleClientToken;
    if (!token) {
      showToast({ title: CHECKOUT_ERROR_TITLE, description: CHECKOUT_ERRORS.initFailed, variant: "destructive" });
      return;
    }
    import("@paddle/paddle-js")
      .then(({ initializePaddle }) =>
        initializePaddle({
          environment: config.paddleEnvironment,
          token,
          eventCallback: (event) => {
            const mapped = fromPaddleEvent(event);
            if (mapped) report(mapped);
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
  }, [demo, config.paddleClientToken, config.paddleEnvironment]);

  return { system };
}

/** Demo mode has no overlay to open: the page renders the demo dialog for the server's checkout. */
const DEMO_OPENER = {
  open: () => {
    throw new Error("the demo checkout is a dialog of the page, not an overlay");
  },
};
