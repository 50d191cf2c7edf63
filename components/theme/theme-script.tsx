// Runs before first paint so the page never flashes the wrong theme: the stored choice, else the OS's.
const script = `(function(){try{var t=localStorage.getItem("cc-theme");var d=t?t==="dark":matchMedia("(prefers-color-scheme: dark)").matches;document.documentElement.classList.toggle("dark",d);}catch(e){}})();`;

export function ThemeScript() {
  return <script dangerouslySetInnerHTML={{ __html: script }} />;
}
