import { useEffect, useEffectEvent } from "react";

/**
 * Runs `onAnswer` once for each new answer of an action or fetcher, after it settles: the place
 * for a toast, closing a dialog or opening a checkout. The callback may read the latest props and
 * state without being a dependency (an effect event).
 */
export function useAnswer<T>(answer: T | null | undefined, settled: boolean, onAnswer: (answer: T) => void): void {
  const handle = useEffectEvent(onAnswer);
  useEffect(() => {
    if (settled && answer !== undefined && answer !== null) handle(answer);
  }, [settled, answer]);
}
