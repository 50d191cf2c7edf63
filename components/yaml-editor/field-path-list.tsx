// A list of managed-field paths (`.spec.containers[name="app"].image`), monospace and wrapped anywhere.

export function FieldPathList({ paths, className, testId }: { paths: string[]; className: string; testId: string }) {
  return (
    <ul className={`${className} font-mono text-xs`} data-testid={testId}>
      {paths.map((f) => (
        <li key={f} className="break-all">
          {f}
        </li>
      ))}
    </ul>
  );
}
