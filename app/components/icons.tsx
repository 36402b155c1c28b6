import type * as React from "react";

export type IconNode = readonly (readonly [string, Readonly<Record<string, string | number>>])[];
export type IconProps = Omit<React.ComponentProps<"svg">, "children" | "dangerouslySetInnerHTML">;

const escapeAttribute = (value: string | number) =>
  String(value).replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

/**
 * An icon drawn as one `<svg>` whose shapes are markup written once, when the module loads, instead of
 * elements React builds, renders and hydrates at every view: a page like /licenses draws sixty icons, and
 * their shapes were a fifth of its elements. The shapes never change, so React has nothing to compare.
 */
export function icon(nodes: IconNode) {
  const shapes = {
    __html: nodes
      .map(([tag, attributes]) => {
        const pairs = Object.entries(attributes)
          .filter(([name]) => name !== "key")
          .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`);
        return `<${tag}${pairs.join("")}></${tag}>`;
      })
      .join(""),
  };
  return function Icon(props: IconProps) {
    const labelled = props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined || props.role;
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={24}
        height={24}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden={labelled ? undefined : "true"}
        {...props}
        dangerouslySetInnerHTML={shapes}
      />
    );
  };
}

// The few icons the first page load needs, drawn inline (paths from Lucide, ISC licence), so the
// icon library is only downloaded by pages that use more of it; the others are in lucide-icons.ts.
export const MenuIcon = icon([
  ["path", { d: "M4 5h16" }],
  ["path", { d: "M4 12h16" }],
  ["path", { d: "M4 19h16" }],
]);
export const LogOutIcon = icon([
  ["path", { d: "m16 17 5-5-5-5" }],
  ["path", { d: "M21 12H9" }],
  ["path", { d: "M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" }],
]);
export const ArrowRightIcon = icon([
  ["path", { d: "M5 12h14" }],
  ["path", { d: "m12 5 7 7-7 7" }],
]);
export const DownloadIcon = icon([
  ["path", { d: "M12 15V3" }],
  ["path", { d: "M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4" }],
  ["path", { d: "m7 10 5 5 5-5" }],
]);
export const EyeIcon = icon([
  [
    "path",
    { d: "M2.062 12.348a1 1 0 0 1 0-.696 10.75 10.75 0 0 1 19.876 0 1 1 0 0 1 0 .696 10.75 10.75 0 0 1-19.876 0" },
  ],
  ["circle", { cx: "12", cy: "12", r: "3" }],
]);
export const FolderOpenIcon = icon([
  [
    "path",
    {
      d: "m6 14 1.5-2.9A2 2 0 0 1 9.24 10H20a2 2 0 0 1 1.94 2.5l-1.54 6a2 2 0 0 1-1.95 1.5H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h3.9a2 2 0 0 1 1.69.9l.81 1.2a2 2 0 0 0 1.67.9H18a2 2 0 0 1 2 2v2",
    },
  ],
]);
export const SparklesIcon = icon([
  [
    "path",
    {
      d: "M11.017 2.814a1 1 0 0 1 1.966 0l1.051 5.558a2 2 0 0 0 1.594 1.594l5.558 1.051a1 1 0 0 1 0 1.966l-5.558 1.051a2 2 0 0 0-1.594 1.594l-1.051 5.558a1 1 0 0 1-1.966 0l-1.051-5.558a2 2 0 0 0-1.594-1.594l-5.558-1.051a1 1 0 0 1 0-1.966l5.558-1.051a2 2 0 0 0 1.594-1.594z",
    },
  ],
  ["path", { d: "M20 2v4" }],
  ["path", { d: "M22 4h-4" }],
  ["circle", { cx: "4", cy: "20", r: "2" }],
]);
export const PlayIcon = icon([
  ["path", { d: "M5 5a2 2 0 0 1 3.008-1.728l11.997 6.998a2 2 0 0 1 .003 3.458l-12 7A2 2 0 0 1 5 19z" }],
]);
