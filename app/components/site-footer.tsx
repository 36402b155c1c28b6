export function SiteFooter({ productName }: { productName?: string }) {
  return <footer>{productName}</footer>;
}
