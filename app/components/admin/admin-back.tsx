import { ArrowLeft } from "~/components/lucide-icons";
import { Link } from "react-router";
import { Button } from "../ui/button";

/** Back to the administration's overview. */
export function BackToAdmin() {
  return (
    <Button asChild variant="ghost" size="sm" className="self-start">
      <Link to="/admin">
        <ArrowLeft aria-hidden /> Administration
      </Link>
    </Button>
  );
}
