import { Link, useLocation } from "react-router";
import { Drawer, DrawerContent, DrawerDescription, DrawerHeader, DrawerTitle } from "./ui/drawer";
import type { NavItem } from "~/domain/navigation";

/**
 * The bottom drawer with the navigation links (below 768 px). Loaded on demand: the drawer
 * library is only downloaded when someone opens the menu.
 */
export default function MobileMenuDrawer({
  items,
  open,
  onOpenChange,
  productName,
  logOut,
  returnFocus,
}: {
  items: NavItem[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  productName: string;
  logOut: React.ReactNode;
  /** Where focus goes when the drawer closes (the Menu button that opened it). */
  returnFocus: () => void;
}) {
  const location = useLocation();
  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <DrawerContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocus();
        }}
      >
        <DrawerHeader>
          <DrawerTitle>{productName}</DrawerTitle>
          <DrawerDescription>Where would you like to go?</DrawerDescription>
        </DrawerHeader>
        <ul className="flex flex-col gap-1 px-4 pb-6" aria-label="Menu">
          {items.map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                onClick={() => onOpenChange(false)}
                aria-current={location.pathname === item.to ? "page" : undefined}
                className="block rounded-md px-3 py-3 text-base font-medium hover:bg-accent aria-[current=page]:bg-accent"
              >
                {item.label}
              </Link>
            </li>
          ))}
          {logOut ? <li>{logOut}</li> : null}
        </ul>
      </DrawerContent>
    </Drawer>
  );
}
