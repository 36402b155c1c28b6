import { cn } from "./utils";

type Config = Record<string, Record<string, string>>;
export type VariantProps<F> = F extends (props?: infer P) => string ? Omit<NonNullable<P>, "className"> : never;

/**
 * Class names from a base and named variants (cva's idea in a few lines, so primitives
 * cost next to nothing on the first page load).
 */
export function variants<C extends Config>(base: string, config: C, defaults: { [K in keyof C]: keyof C[K] }) {
  return (props?: { [K in keyof C]?: keyof C[K] | null } & { className?: string }) =>
    cn(
      base,
      ...Object.keys(config).map((key) => config[key]![String(props?.[key] ?? defaults[key])]),
      props?.className,
    );
}
