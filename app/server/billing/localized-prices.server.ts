import type { CountryCode } from "~/domain/countries";
import { readPricePreview, tablePrices, type LocalizedPrices } from "~/domain/localized-prices";
import { PLAN_IDS, type PlanId, type PriceIds } from "~/domain/plans";
import { getLogger } from "../logger.server";
import { getPaymentProvider } from "./configured-provider.server";
import type { PaymentProvider } from "./payment-provider.server";
import { configuredPriceIds } from "./price-ids.server";

/**
 * The pricing page's prices in the buyer's currency (decision 0072): the provider's pricing preview
 * for the country, kept per provider, country and price set for `ttlMs`. A provider that fails, is
 * slower than `timeoutMs` or answers something unusable gives the plan table's US dollars, never an
 * error; that is remembered for `failureTtlMs` only, so the provider is asked again soon, and the
 * answer says `settled: false` so that the page is not kept in the page cache.
 */

/** How long a country's prices are kept: a price changed at the provider shows within this. */
export const PRICES_TTL_MS = 30 * 60 * 1000;
/** How long a failed answer is kept before the provider is asked again. */
export const PRICES_FAILURE_TTL_MS = 60 * 1000;
/** The longest a page waits for the provider; then it shows US dollars. */
export const PRICES_TIMEOUT_MS = 2000;

export interface PricesAnswer {
  prices: LocalizedPrices;
  /** False when the provider did not answer: US dollars stand in, and the page must not be kept. */
  settled: boolean;
}

interface Options {
  provider: () => PaymentProvider;
  priceIds: () => PriceIds;
  now?: () => number;
  ttlMs?: number;
  failureTtlMs?: number;
  timeoutMs?: number;
}

interface Entry {
  until: number;
  answer: Promise<LocalizedPrices | null>;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function ask(
  provider: PaymentProvider,
  country: CountryCode,
  ids: Record<PlanId, string>,
  timeoutMs: number,
  quantity: number,
): Promise<LocalizedPrices | null> {
  try {
    const preview = await withTimeout(
      provider.previewPrices({ priceIds: PLAN_IDS.map((id) => ids[id]), country, quantity }),
      timeoutMs,
    );
    const prices = readPricePreview(country, ids, preview);
    if (!prices) getLogger().warn({ country, preview }, "the pricing preview cannot be shown; US dollars instead");
    return prices;
  } catch (error) {
    getLogger().warn({ err: error, country }, "the pricing preview failed; US dollars instead");
    return null;
  }
}

export function createLocalizedPrices(options: Options) {
  const now = options.now ?? (() => Date.now());
  const ttlMs = options.ttlMs ?? PRICES_TTL_MS;
  const failureTtlMs = options.failureTtlMs ?? PRICES_FAILURE_TTL_MS;
  const timeoutMs = options.timeoutMs ?? PRICES_TIMEOUT_MS;
  // At most one entry per provider, country (about 250) and price set (two): no other bound is needed.
  const entries = new Map<string, Entry>();

  /**
   * The prices a buyer in `country` (null: unknown) sees for the trial set or the regular one, one
   * license each; with `quantity` (a team checkout's seats) the provider is asked for that many, each
   * line still one seat's price, and the answer is not kept: a checkout is made far less often than
   * the page is seen, and seat counts would multiply the entries by a hundred.
   */
  const pricesFor = async ({
    country,
    trial,
    quantity = 1,
  }: {
    country: CountryCode | null;
    trial: boolean;
    quantity?: number;
  }): Promise<PricesAnswer> => {
    if (!country) return { prices: tablePrices(), settled: true };
    const provider = options.provider();
    const ids = trial ? options.priceIds().trial : options.priceIds().regular;
    if (quantity !== 1) {
      const prices = await ask(provider, country, ids, timeoutMs, quantity);
      return prices ? { prices, settled: true } : { prices: tablePrices(), settled: false };
    }
    const key = [provider.name, country, ...PLAN_IDS.map((id) => ids[id])].join(" ");
    let entry = entries.get(key);
    if (!entry || entry.until <= now()) {
      // One question per key at a time: requests arriving meanwhile wait for the same answer.
      const fresh: Entry = { until: now() + ttlMs, answer: ask(provider, country, ids, timeoutMs, 1) };
      void fresh.answer.then((prices) => {
        if (!prices) fresh.until = Math.min(fresh.until, now() + failureTtlMs);
      });
      entries.set(key, fresh);
      entry = fresh;
    }
    const prices = await entry.answer;
    return prices ? { prices, settled: true } : { prices: tablePrices(), settled: false };
  };

  return { pricesFor, forget: () => entries.clear() };
}

const shared = createLocalizedPrices({ provider: getPaymentProvider, priceIds: configuredPriceIds });

/** The configured provider's prices for a country and price set, kept as `createLocalizedPrices` says. */
export const localizedPrices = shared.pricesFor;

/** For tests: forget every country's prices. */
export const forgetLocalizedPrices = shared.forget;
