import { useEffect, useRef, useState } from "react";
import { CHECKOUT_ERRORS, CHECKOUT_ERROR_TITLE, fromPaddleEvent, type CheckoutEvent, type CheckoutRequest, type CheckoutSystem } from "~/lib/checkout";
import { showToast } from "~/lib/toast";
import type { PublicConfig } from "~/server/env.server";

/**
 * The page's overlay checkout. Paddle mode loads Paddle.js (from Paddle's CDN, once per page)
 * with the client token; demo mode opens the in-site demo dialog, whose request is returned as
 * `demoRequest` for the page to render. Events reach `onEvent` in one shape for both.
 */
export function useCheckout(config: Pick<PublicConfig, "paymentProvider" | "paddleClientToken" | "paddleEnvironment">, onEvent: (event: CheckoutEvent) => void) {
  const [system, setSystem] = useState<CheckoutSystem>({ status: "loading" });
  const [demoRequest, setDemoRequest] = useState<CheckoutRequest | null>(null);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  useEffect(() => {
    if (config.paymentProvider === "demo") {
      setSystem({ status: "ready", opener: { open: (request) => setDemoRequest(request) } });
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

  const finishDemo = (event: CheckoutEvent) => {
    setDemoRequest(null);
    onEventRef.current(event);
  };
  return { system, demoRequest, finishDemo };
}
