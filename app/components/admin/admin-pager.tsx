import { ChevronLeft, ChevronRight } from "~/components/lucide-icons";
import { Link } from "react-router";
import { Button } from "../ui/button";

/** Previous / next page links of an admin list; the page number is in the URL. */
export function AdminPager({
  page,
  hasNext,
  href,
  label,
}: {
  page: number;
  hasNext: boolean;
  href: (page: number) => string;
  label: string;
}) {
  if (page === 1 && !hasNext) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 text-sm">
      {page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={href(page - 1)} preventScrollReset>
            <ChevronLeft aria-hidden /> Previous
          </Link>
        </Button>
      ) : (
        <span />
      )}
      <span className="text-muted-foreground">Page {page}</span>
      {hasNext ? (
        <Button asChild variant="outline" size="sm">
          <Link to={href(page + 1)} preventScrollReset>
            Next <ChevronRight aria-hidden />
          </Link>
        </Button>
      ) : (
        <span />
      )}
    </nav>
  );
}
