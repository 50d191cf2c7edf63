// Dev tool (not run by tests): prints one table of ../schema.ts from a kubectl binary, so the declarations
// can be refreshed when Kubernetes adds fields. Usage:
//   node lib/codec/protobuf/tools/extract-declarations.mjs [path/to/kubectl] [core|rbac|authentication|authorization] > /tmp/t.txt
// then compare with CORE_MESSAGES (default), RBAC_MESSAGES, AUTHENTICATION_MESSAGES or AUTHORIZATION_MESSAGES
// (the hand-kept extras, ObjectMeta.clusterName/initializers with Initializer(s), and the OpenShift messages,
// are not produced here). A group's table leaves out what the core table already declares.
//
// Where the facts come from, both inside any Go build of kubectl:
// * gogo-protobuf registers each generated.proto as a gzipped FileDescriptorProto: message names, field
//   numbers, types, repeated/map, and the gogoproto.nullable=false option (absent = the Go field is a pointer).
// * Go's reflection data keeps every struct's field tags (`json:"name,omitempty" protobuf:"bytes,1,opt,..."`):
//   omitempty and ",inline". Reading it relies on Go's internal type layout (abi.Type, Go 1.21+, amd64,
//   non-PIE); the script cross-checks pointer-ness against the descriptors and reports any disagreement.
import fs from "node:fs";
import zlib from "node:zlib";
import { execFileSync } from "node:child_process";

const binPath = process.argv[2] && process.argv[2] !== "-" ? process.argv[2] : fs.realpathSync(execFileSync("sh", ["-c", "command -v kubectl"]).toString().trim());
const bin = fs.readFileSync(binPath);

// ---- protobuf descriptors ------------------------------------------------------------------------------
function* fields(buf) {
  let i = 0;
  const varint = () => { let r = 0n, s = 0n; for (;;) { const b = buf[i++]; r |= BigInt(b & 0x7f) << s; s += 7n; if (!(b & 0x80)) return r; } };
  while (i < buf.length) {
    const key = Number(varint()); const no = key >> 3, wt = key & 7;
    if (wt === 0) yield [no, varint()];
    else if (wt === 2) { const l = Number(varint()); yield [no, buf.subarray(i, i + l)]; i += l; }
    else if (wt === 1) { yield [no, buf.subarray(i, i + 8)]; i += 8; }
    else if (wt === 5) { yield [no, buf.subarray(i, i + 4)]; i += 4; }
    else throw new Error("wire type " + wt);
  }
}
const TYPES = { 3: "int64", 5: "int32", 8: "bool", 9: "string", 11: "message", 12: "bytes" };
const GOGO_NULLABLE_FALSE = Buffer.from([0xc8, 0xde, 0x1f, 0x00]); // option (gogoproto.nullable) = false
function fieldDesc(b) {
  const f = { nullable: true };
  for (const [n, v] of fields(b)) {
    if (n === 1) f.name = v.toString();
    if (n === 3) f.number = Number(v);
    if (n === 4) f.label = Number(v);
    if (n === 5) f.type = TYPES[Number(v)] ?? `type${v}`;
    if (n === 6) f.typeName = v.toString();
    if (n === 8) f.nullable = !Buffer.from(v).includes(GOGO_NULLABLE_FALSE);
  }
  return f;
}
function messageDesc(b, prefix, out) {
  let name; const fs_ = [], nested = []; let mapEntry = false;
  for (const [n, v] of fields(b)) {
    if (n === 1) name = v.toString();
    if (n === 2) fs_.push(fieldDesc(v));
    if (n === 3) nested.push(v);
    if (n === 7) for (const [on, ov] of fields(v)) if (on === 7) mapEntry = !!ov;
  }
  out[`${prefix}.${name}`] = { fields: fs_, mapEntry };
  for (const nb of nested) messageDesc(nb, `${prefix}.${name}`, out);
}
const descriptors = {};
for (let at = 0; (at = bin.indexOf(Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0]), at)) >= 0; at++) {
  let fd;
  try { fd = zlib.gunzipSync(bin.subarray(at, at + 2_000_000), { finishFlush: zlib.constants.Z_SYNC_FLUSH }); } catch { continue; }
  if (fd[0] !== 0x0a || !fd.subarray(2, 2 + fd[1]).toString().endsWith(".proto")) continue;
  let pkg = ""; const msgs = [];
  for (const [n, v] of fields(fd)) { if (n === 2) pkg = v.toString(); if (n === 4) msgs.push(v); }
  for (const m of msgs) messageDesc(m, "." + pkg, descriptors);
}

// ---- Go struct tags from reflection data -----------------------------------------------------------------
const sections = (() => { // ELF64 section headers: name -> {addr, offset, size}
  const shoff = Number(bin.readBigUInt64LE(0x28)), shentsize = bin.readUInt16LE(0x3a), shnum = bin.readUInt16LE(0x3c), shstrndx = bin.readUInt16LE(0x3e);
  const hdr = (i) => { const o = shoff + i * shentsize; return { name: bin.readUInt32LE(o), addr: Number(bin.readBigUInt64LE(o + 0x10)), offset: Number(bin.readBigUInt64LE(o + 0x18)), size: Number(bin.readBigUInt64LE(o + 0x20)) }; };
  const strtab = hdr(shstrndx); const out = {};
  for (let i = 0; i < shnum; i++) { const h = hdr(i); const end = bin.indexOf(0, strtab.offset + h.name); out[bin.toString("latin1", strtab.offset + h.name, end)] = h; }
  return out;
})();
const ro = sections[".rodata"];
const off = (va) => (va >= ro.addr && va < ro.addr + ro.size ? va - ro.addr + ro.offset : -1);
const u64 = (o) => Number(bin.readBigUInt64LE(o));
function goName(o) {
  const flags = bin[o]; let i = o + 1;
  const vi = () => { let r = 0, s = 0; for (;;) { const b = bin[i++]; r |= (b & 0x7f) << s; s += 7; if (!(b & 0x80)) return r; } };
  const n = vi(); const name = bin.toString("latin1", i, i + n); i += n;
  let tag = ""; if (flags & 2) { const t = vi(); tag = bin.toString("latin1", i, i + t); }
  return { name, tag };
}
const typeString = (t) => { const s = goName(off(ro.addr + bin.readInt32LE(t + 40))).name; return bin[t + 20] & 2 ? s.slice(1) : s; };
const KIND_PTR = 22, KIND_STRUCT = 25;
const goStructs = new Map();
for (let q = ro.offset + 56; q + 24 < ro.offset + ro.size; q += 8) {
  const len = u64(q + 8); if (len < 1 || len > 300 || u64(q + 16) !== len) continue;
  const data = off(u64(q)); const t = q - 56;
  if (data < 0 || (bin[t + 23] & 0x1f) !== KIND_STRUCT || !(bin[t + 20] & 1)) continue;
  try {
    const pkgOff = bin.readInt32LE(t + 80); if (!pkgOff) continue;
    const key = `${goName(off(ro.addr + pkgOff)).name}.${typeString(t)}`;
    const fs_ = [];
    for (let k = 0; k < len; k++) {
      const f = data + k * 24; const typ = off(u64(f + 8));
      fs_.push({ ...goName(off(u64(f))), pointer: (bin[typ + 23] & 0x1f) === KIND_PTR });
    }
    goStructs.set(key, fs_);
  } catch { /* not a struct type after all */ }
}

// ---- the table ---------------------------------------------------------------------------------------------
const CORE = ".k8s.io.api.core.v1.", META = ".k8s.io.apimachinery.pkg.apis.meta.v1.";
const API = ".k8s.io.api.";
const ROOTS = {
  core: ["ConfigMap", "Endpoints", "Event", "LimitRange", "Namespace", "PersistentVolume", "PersistentVolumeClaim", "Pod", "ResourceQuota", "Secret", "Service", "ServiceAccount"]
    .map((n) => CORE + n).concat([META + "DeleteOptions", META + "Status"]),
  rbac: ["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"].map((n) => `${API}rbac.v1.${n}`),
  authentication: ["TokenRequest", "TokenReview", "SelfSubjectReview"].map((n) => `${API}authentication.v1.${n}`),
  authorization: ["SubjectAccessReview", "SelfSubjectAccessReview", "LocalSubjectAccessReview", "SelfSubjectRulesReview"].map((n) => `${API}authorization.v1.${n}`),
};
const group = process.argv[3] ?? "core";
if (!ROOTS[group]) throw new Error(`unknown table ${group}; one of ${Object.keys(ROOTS).join(", ")}`);
// ExtraValue (a Go []string) is a well-known type in schema.ts, decoded to a JSON array.
const WELL_KNOWN = new Set([META + "Time", META + "MicroTime", META + "FieldsV1", ".k8s.io.apimachinery.pkg.api.resource.Quantity", ".k8s.io.apimachinery.pkg.util.intstr.IntOrString",
  `${API}authentication.v1.ExtraValue`, `${API}authorization.v1.ExtraValue`]);
const short = (n) => n.split(".").pop();
// ".k8s.io.api.rbac.v1.Role" -> "k8s.io/api/rbac/v1.v1.Role" (Go package path, then the type's own name).
const goKey = (n) => { const parts = n.slice(1).split("."); const name = parts.pop(); return `k8s.io/${parts.slice(2).join("/")}.${parts.at(-1)}.${name}`; };
let order = []; const seen = new Set(); const problems = [];
const visit = (n) => {
  if (seen.has(n)) return; seen.add(n);
  if (WELL_KNOWN.has(n)) return;
  const m = descriptors[n]; if (!m) { problems.push(`no descriptor for ${n}`); return; }
  order.push(n);
  for (const f of m.fields) if (f.typeName) { const t = descriptors[f.typeName]; if (t?.mapEntry) t.fields.forEach((ef) => ef.typeName && visit(ef.typeName)); else visit(f.typeName); }
};
// A group's table omits what the core table declares (ObjectMeta, LabelSelector, ...).
if (group !== "core") { ROOTS.core.forEach(visit); order = []; }
ROOTS[group].forEach(visit);
const out = [];
for (const n of order.sort((a, b) => short(a).localeCompare(short(b)))) {
  const go = goStructs.get(goKey(n)); if (!go) { problems.push(`no Go struct for ${n}`); continue; }
  const byNumber = new Map();
  for (const g of go) { const pm = /protobuf:"([^"]*)"/.exec(g.tag); if (pm) byNumber.set(Number(pm[1].split(",")[1]), g); }
  const specs = [];
  for (const f of [...descriptors[n].fields].sort((a, b) => a.number - b.number)) {
    const g = byNumber.get(f.number); if (!g) { problems.push(`${short(n)}.${f.name}: no Go field`); continue; }
    const [json, ...opts] = /json:"([^"]*)"/.exec(g.tag)[1].split(",");
    const entry = f.typeName && descriptors[f.typeName]?.mapEntry ? descriptors[f.typeName] : null;
    const scalar = (x) => (x.type === "message" ? short(x.typeName) : x.type);
    const single = !entry && f.label !== 3;
    const type = entry ? `map<${scalar(entry.fields[1])}>` : scalar(f) + (f.label === 3 ? "[]" : "");
    if (single && g.pointer !== f.nullable) problems.push(`${short(n)}.${f.name}: Go pointer=${g.pointer} but descriptor nullable=${f.nullable}`);
    const prefix = single && g.pointer ? "*" : single && f.type !== "message" && !opts.includes("omitempty") && !opts.includes("inline") ? "!" : "";
    specs.push(`${f.number} ${opts.includes("inline") ? "(inline)" : json} ${prefix}${type}`);
  }
  out.push(`  ${short(n)}: ${JSON.stringify(specs)},`);
}
console.log(out.join("\n"));
if (problems.length) console.error(problems.join("\n"));
