import Link from "next/link";

export default function NotFound() {
  return (
    <main className="page narrow">
      <h1>Page not found</h1>
      <p>The page does not exist, or you do not have access to it.</p>
      <p>
        <Link href="/">Back to your sessions</Link>
      </p>
    </main>
  );
}
