import Link from "next/link";

export default function NotFound() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-2 p-16 text-center">
      <h1 className="text-lg font-semibold">Nothing here</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">This console page does not exist. Pick a kind from the sidebar.</p>
      <Link href="/" className="text-sm text-blue-800 underline dark:text-blue-300">
        Go to the overview
      </Link>
    </div>
  );
}
