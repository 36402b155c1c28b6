export default function Page() {
  return <h1>release-notes</h1>;
}
