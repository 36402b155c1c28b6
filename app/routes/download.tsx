export default function Page() {
  return <h1>download</h1>;
}
