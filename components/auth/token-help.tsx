// Where a token comes from, on the sign-in page: the administrator's file, a ServiceAccount token minted
// with kubectl (our server serves TokenRequest, `POST .../serviceaccounts/<name>/token`), or the token file.
import { CopyButton } from "../ui/copy-button";

const code = "break-all rounded bg-slate-100 px-1 font-mono text-slate-800 dark:bg-slate-800 dark:text-slate-100";
const term = "font-medium text-slate-800 dark:text-slate-200";

export function TokenHelp() {
  const mint = "kubectl create token <serviceaccount> -n <namespace>";
  return (
    <div className="mt-6 space-y-3 border-t border-slate-200 pt-4 text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400" data-testid="token-help">
      <h2 className="text-sm font-semibold text-slate-800 dark:text-slate-200">Where to find a token</h2>
      <p>
        <span className={term}>Administrator:</span> the server keeps the admin token in the file <code className={code}>$DATA_DIR/admin-token</code> (by
        default <code className={code}>./data/admin-token</code>, beside where the server was started), unless it was started with{" "}
        <code className={code}>CLUSTER_ADMIN_TOKEN</code> set. Read it on the server with <code className={code}>cat ./data/admin-token</code>.
      </p>
      <div>
        <p>
          <span className={term}>ServiceAccount:</span> mint a short-lived token (one hour by default, <code className={code}>--duration=8h</code> for longer)
          with the admin kubeconfig the server writes to <code className={code}>$DATA_DIR/admin.kubeconfig</code>:
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-2">
          <code className={code}>{mint}</code>
          <CopyButton text={mint} label="Copy the kubectl command" />
        </p>
        <p className="mt-1">The ServiceAccount sees what its RoleBindings allow.</p>
      </div>
      <p>
        <span className={term}>People:</span> the token given to you from the server&apos;s token file (<code className={code}>TOKEN_AUTH_FILE</code>).
      </p>
    </div>
  );
}
