"use client";
// A version's openAPIV3Schema as a tree of fields (schema-tree.ts): each field's name, type, "required", its
// description, enum, default, bounds, markers and CEL rules. The first levels start open (spec, spec.x,
// spec.x.y); deeper fields start closed and their rows are built only when opened, so a cert-manager-size
// schema renders what is on screen. "Find a field" opens the way to every field whose name matches.
import { memo, useDeferredValue, useMemo, useState } from "react";
import type { JSONSchemaProps } from "@/lib/crd-schema/types";
import { findFields, nodeChildren, schemaChildren, schemaFacts, startsOpen, type SchemaFacts, type SchemaNode } from "./schema-tree";
import { Muted } from "../field-list";

const chip = "inline-block rounded bg-slate-100 px-1.5 font-mono text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-200";

/** Enum, default, bounds, markers and CEL rules of a field (or of its items / values). */
function FactsDetail({ facts }: { facts: SchemaFacts }) {
  return (
    <>
      {facts.description && <p className="whitespace-pre-line break-words text-xs text-slate-700 dark:text-slate-300">{facts.description}</p>}
      {(facts.enum || facts.default !== undefined || facts.constraints.length > 0 || facts.markers.length > 0) && (
        <p className="flex flex-wrap gap-1 text-xs">
          {facts.enum && (
            <span className={`${chip} break-all`} data-testid="schema-enum">
              enum: {facts.enum.join(", ")}
            </span>
          )}
          {facts.default !== undefined && (
            <span className={`${chip} break-all`} data-testid="schema-default">
              default: {facts.default}
            </span>
          )}
          {facts.constraints.map((c) => (
            <span key={c} className={`${chip} break-all`} data-testid="schema-constraint">
              {c}
            </span>
          ))}
          {facts.markers.map((m) => (
            <span key={m} className={`${chip} break-all`} data-testid="schema-marker">
              {m}
            </span>
          ))}
        </p>
      )}
      {facts.rules.length > 0 && (
        <ul className="mt-0.5 space-y-0.5 text-xs" aria-label="Validation rules (CEL)">
          {facts.rules.map((r, i) => (
            <li key={`${r.rule}-${i}`} className="break-words rounded border-l-2 border-violet-500 bg-violet-50 px-2 py-0.5 dark:bg-violet-950/50" data-testid="schema-rule">
              <span className="font-semibold text-violet-900 dark:text-violet-200">rule</span> <code className="break-all font-mono">{r.rule}</code>
              {(r.message || r.messageExpression) && (
                <span className="text-slate-700 dark:text-slate-300" data-testid="schema-rule-message">
                  {" "}
                  — {r.message ?? <code className="font-mono">{r.messageExpression}</code>}
                </span>
              )}
              {(r.reason || r.fieldPath) && (
                <span className="text-slate-600 dark:text-slate-400">
                  {" "}
                  ({[r.reason, r.fieldPath && `at ${r.fieldPath}`].filter(Boolean).join(", ")})
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * What every row of one tree shares, fixed while the tree lives: a new search builds a new tree (its key), so
 * opening a field re-renders that field alone, never its siblings.
 */
interface TreeState {
  /** Fields a search opens (the way to its matches). */
  opened: Set<string>;
  matches: Set<string>;
  searching: boolean;
  idPrefix: string;
}

const FieldRow = memo(function FieldRow({ node, state }: { node: SchemaNode; state: TreeState }) {
  const [expanded, setExpanded] = useState(() => state.opened.has(node.path) || (!state.searching && startsOpen(node.depth)));
  const open = node.hasChildren && expanded;
  const { facts } = node;
  const match = state.matches.has(node.path);
  const listId = `${state.idPrefix}-${node.path}`.replace(/\s/g, "_");
  return (
    <li data-testid="schema-field" data-path={node.path} data-match={match || undefined} className="py-0.5">
      <div className={`flex flex-wrap items-baseline gap-x-2 ${match ? "rounded bg-yellow-100 dark:bg-yellow-900/40" : ""}`}>
        {node.hasChildren ? (
          <button
            type="button"
            aria-expanded={open}
            aria-controls={open ? listId : undefined}
            onClick={() => setExpanded((e) => !e)}
            className="break-all rounded text-left font-mono text-sm font-medium text-blue-800 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
            data-testid="schema-toggle"
          >
            <span aria-hidden="true" className="inline-block w-3">{open ? "▾" : "▸"}</span>
            {node.name}
          </button>
        ) : (
          <span className="break-all pl-3 font-mono text-sm">{node.name}</span>
        )}
        {facts.type && <span className="font-mono text-xs text-slate-600 dark:text-slate-400" data-testid="schema-type">{facts.type}</span>}
        {node.required && (
          <span className="text-xs font-semibold text-red-800 dark:text-red-300" data-testid="schema-required">
            required
          </span>
        )}
      </div>
      <div className="pl-3">
        <FactsDetail facts={facts} />
        {node.each && (
          <div className="mt-0.5 text-xs" data-testid="schema-each">
            <span className="text-slate-600 dark:text-slate-400">{node.each.label}:</span> <FactsDetail facts={node.each.facts} />
          </div>
        )}
      </div>
      {open && <ChildFields id={listId} node={node} state={state} />}
    </li>
  );
});

function ChildFields({ id, node, state }: { id: string; node: SchemaNode; state: TreeState }) {
  const children = useMemo(() => nodeChildren(node), [node]);
  return (
    <ul id={id} className="ml-1.5 border-l border-slate-200 pl-3 dark:border-slate-700">
      {children.map((c) => (
        <FieldRow key={c.path} node={c} state={state} />
      ))}
    </ul>
  );
}

/** Memoised: the object page re-renders every second (ages tick); the tree only when its schema changes. */
export const SchemaTreeView = memo(function SchemaTreeView({ schema, version }: { schema: JSONSchemaProps | undefined; version: string }) {
  const roots = useMemo(() => schemaChildren(schema), [schema]);
  const rootFacts = useMemo(() => (schema ? schemaFacts(schema) : undefined), [schema]);
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query);
  const state: TreeState = useMemo(() => {
    const found = findFields(schema, deferred);
    return { opened: found.open, matches: new Set(found.matches), searching: !!deferred.trim(), idPrefix: `schema-${version}` };
  }, [schema, deferred, version]);
  if (!schema) return <p className="text-sm"><Muted>Version {version} has no schema.</Muted></p>;
  const inputId = `schema-find-${version}`;
  return (
    <div data-testid="schema-tree" data-version={version}>
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
        <label htmlFor={inputId} className="text-slate-600 dark:text-slate-400">
          Find a field
        </label>
        <input
          id={inputId}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="name or .spec.path"
          className="w-48 min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
          data-testid="schema-find"
        />
        {state.searching && (
          <span role="status" className="text-slate-600 dark:text-slate-400" data-testid="schema-find-count">
            {state.matches.size === 0 ? "no field matches" : `${state.matches.size}${state.matches.size >= 200 ? "+" : ""} matching field${state.matches.size === 1 ? "" : "s"}`}
          </span>
        )}
      </div>
      {rootFacts && (rootFacts.rules.length > 0 || rootFacts.markers.length > 0) && (
        <div className="mb-1 text-xs" data-testid="schema-root">
          <span className="text-slate-600 dark:text-slate-400">the object:</span> <FactsDetail facts={{ ...rootFacts, description: undefined }} />
        </div>
      )}
      {roots.length === 0 ? (
        <p className="text-sm"><Muted>No fields declared{rootFacts?.markers.includes("x-kubernetes-preserve-unknown-fields") ? " (x-kubernetes-preserve-unknown-fields: any field is kept)" : ""}.</Muted></p>
      ) : (
        // A new search is a new tree: the fields it opens, every other field as it starts.
        <ul key={deferred} aria-label={`Fields of version ${version}`}>
          {roots.map((n) => (
            <FieldRow key={n.path} node={n} state={state} />
          ))}
        </ul>
      )}
    </div>
  );
});
