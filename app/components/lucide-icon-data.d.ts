// Lucide's per-icon modules (lucide-react/icons/<name>) export their shape data as `__iconData` beside
// the component, but its type declarations name only the component; lucide-icons.ts reads the data.
import type { IconNode } from "./icons";

declare module "lucide-react/icons/*" {
  export const __iconData: { name: string; node: IconNode; aliases?: string[] };
}
