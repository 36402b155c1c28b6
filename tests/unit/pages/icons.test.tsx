import { isValidElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { __iconData as copyData } from "lucide-react/icons/copy";
import { describe, expect, it } from "vitest";
import { icon } from "~/components/icons";
import * as icons from "~/components/lucide-icons";

// Icons are one <svg> whose shapes are fixed markup (decision 0084): React builds and hydrates a
// single element per icon, not one per shape, and the page shows the same drawing as Lucide's.
describe("icons", () => {
  it("draws Lucide's shapes as markup inside one svg, hidden from screen readers", () => {
    const html = renderToStaticMarkup(<icons.Copy className="size-4" />);
    expect(html).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" ' +
        'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" ' +
        'aria-hidden="true" class="size-4">' +
        '<rect width="14" height="14" x="8" y="8" rx="2" ry="2"></rect>' +
        '<path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2"></path></svg>',
    );
    expect(copyData.node).toHaveLength(2);
  });

  it("gives React one element per icon: the shapes are not elements to render or hydrate", () => {
    const element = icons.Trash2({});
    expect(isValidElement(element)).toBe(true);
    const props = (element as { props: { children?: unknown; dangerouslySetInnerHTML?: { __html: string } } }).props;
    expect(props.children).toBeUndefined();
    expect(props.dangerouslySetInnerHTML?.__html).toMatch(/^<path d="[^"]+"><\/path>/);
  });

  it("is read out when labelled, and keeps what the caller sets", () => {
    const labelled = renderToStaticMarkup(<icons.Info aria-label="More about this" />);
    expect(labelled).toContain('aria-label="More about this"');
    expect(labelled).not.toContain("aria-hidden");
    const sized = renderToStaticMarkup(<icons.Info width={16} height={16} strokeWidth={3} />);
    expect(sized).toContain('width="16" height="16"');
    expect(sized).toContain('stroke-width="3"');
  });

  it("escapes what it writes as markup", () => {
    const Drawn = icon([["path", { d: 'M0 0"/><script>x</script>', key: "k" }]]);
    expect(renderToStaticMarkup(<Drawn />)).toContain('<path d="M0 0&quot;/>&lt;script>x&lt;/script>"></path>');
  });

  it("exports a drawing for every name the site uses", () => {
    for (const [name, Icon] of Object.entries(icons)) {
      expect(renderToStaticMarkup(<Icon />), name).toMatch(/^<svg [^>]+><(path|rect|circle|line|polyline)\b/);
    }
  });
});
