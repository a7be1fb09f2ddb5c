#!/usr/bin/env node
// Validates Kubernetes manifests offline:
//   1. every object against the Kubernetes OpenAPI schema of its apiVersion and
//      kind (the `kubernetes-models` package: JSON-schema validators compiled
//      from the official OpenAPI definitions, no cluster or network needed);
//   2. the project's own rules for deploy/kubernetes (issue 4): 2+ replicas,
//      readiness on /readyz, liveness on /healthz, requests and limits,
//      runAsNonRoot, readOnlyRootFilesystem, no capabilities, and that the
//      Service, HorizontalPodAutoscaler and PodDisruptionBudget point at the
//      Deployment's pods.
//
//   node validate.cjs --modules DIR [--dockerfile FILE] PATH...
//       exit 0 when all are valid (and agree with the image's USER and ports)
//   node validate.cjs --modules DIR --expect-invalid FILE... exit 0 when each FILE is
//       rejected with every reason its "# expect: TEXT" lines name
//   node validate.cjs --modules DIR [--dockerfile FILE] --self-test PATH...
//       breaks the valid manifests in known ways, one at a time, and checks
//       each break is caught
//
// DIR is where `npm ci` installed package.json's dependencies. A PATH is a
// manifest or a folder of them (*.yaml, *.yml; kustomization.yaml is checked
// for the files it lists).
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");

function usage(message) {
  process.stderr.write(`validate: ${message}\n` +
    "usage: node validate.cjs --modules DIR [--expect-invalid | --self-test] PATH...\n");
  process.exit(2);
}

const args = process.argv.slice(2);
let modules = null;
let mode = "valid";
let dockerfile = null;
const inputs = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === "--modules" && i + 1 < args.length) modules = args[++i];
  else if (args[i] === "--expect-invalid") mode = "invalid";
  else if (args[i] === "--self-test") mode = "self-test";
  else if (args[i] === "--dockerfile" && i + 1 < args.length) dockerfile = args[++i];
  else if (args[i].startsWith("--")) usage(`unknown option ${args[i]}`);
  else inputs.push(args[i]);
}
if (!modules) usage("--modules DIR is required");
if (inputs.length === 0) usage("no manifests given");

const requireDep = createRequire(path.join(path.resolve(modules), "package.json"));
const yaml = requireDep("js-yaml");

// ---------------------------------------------------------------- loading

function manifestFiles(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return [p];
  return fs.readdirSync(p).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(p, f));
}

// [{file, index, doc}] for every non-empty YAML document.
function load(files) {
  const out = [];
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    let docs;
    try {
      docs = yaml.loadAll(text);
    } catch (e) {
      out.push({ file, index: 0, doc: null, parseError: e.message.split("\n")[0] });
      continue;
    }
    docs.forEach((doc, index) => {
      if (doc !== null && doc !== undefined) out.push({ file, index, doc });
    });
  }
  return out;
}

// ---------------------------------------------------------------- schemas

// apps/v1 + Deployment -> kubernetes-models/apps/v1/Deployment; v1 + Service ->
// kubernetes-models/v1/Service.
function modelFor(apiVersion, kind) {
  if (typeof apiVersion !== "string" || typeof kind !== "string" || !/^[A-Za-z]+$/.test(kind)) {
    return null;
  }
  if (!/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion)) return null;
  try {
    const mod = requireDep(`kubernetes-models/${apiVersion}/${kind}`);
    return mod[kind] || null;
  } catch (e) {
    return null;
  }
}

function schemaErrors(doc) {
  if (typeof doc !== "object" || Array.isArray(doc)) return ["is not a mapping"];
  const isKustomization = typeof doc.apiVersion === "string" &&
    doc.apiVersion.startsWith("kustomize.config.k8s.io/");
  if (isKustomization) return [];
  const Model = modelFor(doc.apiVersion, doc.kind);
  if (!Model) return [`unknown apiVersion/kind ${doc.apiVersion}/${doc.kind}`];
  try {
    new Model(doc).validate();
    return [];
  } catch (e) {
    const details = Array.isArray(e.errors) ? e.errors : null;
    if (!details) return [`schema: ${e.message}`];
    return details.map((d) => {
      const extra = d.params && d.params.allowedValues ? ` (${d.params.allowedValues.join(", ")})` : "";
      return `schema: ${d.instancePath || "/"} ${d.message}${extra}`;
    });
  }
}

// ---------------------------------------------------------------- project rules

const get = (o, ...keys) => keys.reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), o);

function matches(selector, labels) {
  if (!selector || typeof selector !== "object" || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels && labels[k] === v);
}

function checkDeployment(d, err) {
  const spec = d.spec || {};
  const pod = get(spec, "template", "spec") || {};
  const labels = get(spec, "template", "metadata", "labels") || {};
  if (!(Number.isInteger(spec.replicas) && spec.replicas >= 2)) err("policy: needs spec.replicas >= 2");
  if (!matches(get(spec, "selector", "matchLabels"), labels)) {
    err("policy: spec.selector.matchLabels must select the pod template's labels");
  }
  const containers = pod.containers || [];
  if (containers.length === 0) err("policy: no containers");
  for (const c of containers) {
    const where = `container ${c.name}`;
    const portNames = new Set((c.ports || []).map((p) => p.name));
    const portNumbers = new Set((c.ports || []).map((p) => p.containerPort));
    const probe = (kind, wantPath) => {
      const g = get(c, kind, "httpGet");
      if (!g) return err(`policy: ${where} needs a ${kind} with httpGet ${wantPath}`);
      if (g.path !== wantPath) err(`policy: ${where} ${kind} must GET ${wantPath}, not ${g.path}`);
      if (!(portNames.has(g.port) || portNumbers.has(g.port))) {
        err(`policy: ${where} ${kind} port ${g.port} is not a container port`);
      }
    };
    probe("readinessProbe", "/readyz");
    probe("livenessProbe", "/healthz");
    for (const kind of ["requests", "limits"]) {
      for (const res of ["cpu", "memory"]) {
        if (get(c, "resources", kind, res) === undefined) err(`policy: ${where} needs resources.${kind}.${res}`);
      }
    }
    const sc = c.securityContext || {};
    const nonRoot = sc.runAsNonRoot ?? get(pod, "securityContext", "runAsNonRoot");
    if (nonRoot !== true) err(`policy: ${where} needs runAsNonRoot: true`);
    const uid = sc.runAsUser ?? get(pod, "securityContext", "runAsUser");
    if (uid === 0) err(`policy: ${where} runs as uid 0`);
    if (sc.readOnlyRootFilesystem !== true) err(`policy: ${where} needs readOnlyRootFilesystem: true`);
    if (sc.allowPrivilegeEscalation !== false) err(`policy: ${where} needs allowPrivilegeEscalation: false`);
    if (sc.privileged === true) err(`policy: ${where} must not be privileged`);
    const caps = sc.capabilities || {};
    if (!(Array.isArray(caps.drop) && caps.drop.includes("ALL"))) err(`policy: ${where} must drop ALL capabilities`);
    if (Array.isArray(caps.add) && caps.add.length > 0) err(`policy: ${where} must add no capabilities`);
  }
}

function podPortNames(deployment) {
  const names = new Set();
  for (const c of get(deployment, "spec", "template", "spec", "containers") || []) {
    for (const p of c.ports || []) {
      names.add(p.name);
      names.add(p.containerPort);
    }
  }
  return names;
}

// Errors keyed by the object they are about: "Kind/name".
function policyErrors(objects) {
  const errors = new Map();
  const key = (o) => `${o.kind}/${get(o, "metadata", "name")}`;
  const add = (o, msg) => {
    if (!errors.has(key(o))) errors.set(key(o), []);
    errors.get(key(o)).push(msg);
  };
  const of = (kind) => objects.filter((o) => o && o.kind === kind);
  const deployments = of("Deployment");
  if (deployments.length === 0) return { errors, global: ["policy: no Deployment"] };
  const global = [];
  for (const d of deployments) checkDeployment(d, (msg) => add(d, msg));
  const podLabels = (d) => get(d, "spec", "template", "metadata", "labels") || {};
  const required = ["Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"];
  for (const kind of required) if (of(kind).length === 0) global.push(`policy: no ${kind}`);
  for (const s of of("Service")) {
    const target = deployments.find((d) => matches(get(s, "spec", "selector"), podLabels(d)));
    if (!target) {
      add(s, "policy: spec.selector selects no Deployment's pods");
      continue;
    }
    for (const p of get(s, "spec", "ports") || []) {
      if (!podPortNames(target).has(p.targetPort ?? p.port)) {
        add(s, `policy: targetPort ${p.targetPort} is not a port of Deployment/${target.metadata.name}`);
      }
    }
  }
  for (const h of of("HorizontalPodAutoscaler")) {
    const ref = get(h, "spec", "scaleTargetRef") || {};
    const target = deployments.find((d) => ref.kind === "Deployment" && ref.name === d.metadata.name &&
      ref.apiVersion === d.apiVersion);
    if (!target) add(h, `policy: scaleTargetRef ${ref.apiVersion} ${ref.kind}/${ref.name} is not a Deployment here`);
    const min = get(h, "spec", "minReplicas");
    if (!(Number.isInteger(min) && min >= 2)) add(h, "policy: needs spec.minReplicas >= 2");
    if (target && Number.isInteger(min) && min > target.spec.replicas) {
      add(h, "policy: minReplicas is above the Deployment's replicas");
    }
  }
  for (const p of of("PodDisruptionBudget")) {
    const sel = get(p, "spec", "selector", "matchLabels");
    const target = deployments.find((d) => matches(sel, podLabels(d)));
    if (!target) {
      add(p, "policy: spec.selector selects no Deployment's pods");
      continue;
    }
    const minAvailable = get(p, "spec", "minAvailable");
    if (Number.isInteger(minAvailable) && minAvailable >= target.spec.replicas) {
      add(p, "policy: minAvailable leaves no pod that may be evicted");
    }
    if (get(p, "spec", "maxUnavailable") === 0) add(p, "policy: maxUnavailable 0 blocks every drain");
  }
  return { errors, global };
}

// Files listed by a kustomization must exist beside it, and every manifest in
// its folder must be listed (so `kubectl apply -k` deploys what we validate).
function kustomizationErrors(entries) {
  const out = [];
  for (const e of entries) {
    if (!e.doc || e.doc.kind !== "Kustomization") continue;
    const dir = path.dirname(e.file);
    const listed = new Set(e.doc.resources || []);
    for (const r of listed) {
      if (!fs.existsSync(path.join(dir, r))) out.push(`${e.file}: lists ${r}, which does not exist`);
    }
    for (const f of manifestFiles(dir)) {
      const base = path.basename(f);
      if (base !== path.basename(e.file) && !listed.has(base)) out.push(`${e.file}: does not list ${base}`);
    }
  }
  return out;
}

// All errors of a set of entries: [{where, message}].
function validate(entries) {
  const found = [];
  for (const e of entries) {
    const where = `${e.file}#${e.index}`;
    if (e.parseError) {
      found.push({ where, message: `yaml: ${e.parseError}` });
      continue;
    }
    const label = `${where} ${e.doc && e.doc.kind}/${get(e.doc, "metadata", "name")}`;
    for (const m of schemaErrors(e.doc)) found.push({ where: label, message: m });
  }
  const objects = entries.filter((e) => e.doc && e.doc.kind !== "Kustomization").map((e) => e.doc);
  const { errors, global } = policyErrors(objects);
  for (const [k, msgs] of errors) for (const m of msgs) found.push({ where: k, message: m });
  for (const m of global) found.push({ where: "manifests", message: m });
  for (const m of kustomizationErrors(entries)) found.push({ where: "kustomization", message: m });
  if (dockerfile && objects.some((o) => o && o.kind === "Deployment")) {
    for (const m of dockerfileErrors(dockerfile, objects)) found.push({ where: "image", message: m });
  }
  return found;
}

function report(found) {
  for (const f of found) process.stdout.write(`  ${f.where}: ${f.message}\n`);
}

// The image and the Deployment must agree: the user the image runs as, the
// port it listens on and exposes, the port the health check probes.
function dockerfileErrors(file, objects) {
  const lines = fs.readFileSync(file, "utf8").replace(/\\\n/g, " ").split("\n");
  const last = (word) => lines.filter((l) => l.trim().toUpperCase().startsWith(word + " ")).pop();
  const out = [];
  const user = (last("USER") || "").trim().split(/\s+/)[1] || "";
  const [uid, gid] = user.split(":");
  const exposed = ((last("EXPOSE") || "").trim().split(/\s+/)[1] || "").split("/")[0];
  const envLine = lines.filter((l) => /^\s*ENV\s/.test(l)).join(" ");
  const envPort = (envLine.match(/EIGHT_PORT=(\d+)/) || [])[1];
  if (!/^[0-9]+$/.test(uid || "") || uid === "0") out.push(`Dockerfile: USER must be a numeric non-root uid, not '${user}'`);
  for (const d of objects.filter((o) => o && o.kind === "Deployment")) {
    const pod = get(d, "spec", "template", "spec") || {};
    for (const c of pod.containers || []) {
      const runAs = get(c, "securityContext", "runAsUser") ?? get(pod, "securityContext", "runAsUser");
      const runAsGroup = get(c, "securityContext", "runAsGroup") ?? get(pod, "securityContext", "runAsGroup");
      if (runAs !== undefined && String(runAs) !== uid) out.push(`policy: runAsUser ${runAs} is not the image's USER ${uid}`);
      if (runAsGroup !== undefined && gid !== undefined && String(runAsGroup) !== gid) {
        out.push(`policy: runAsGroup ${runAsGroup} is not the image's group ${gid}`);
      }
      const ports = (c.ports || []).map((p) => String(p.containerPort));
      if (!ports.includes(exposed)) out.push(`policy: no container port is the image's EXPOSE ${exposed}`);
      const env = Object.fromEntries((c.env || []).map((e) => [e.name, e.value]));
      const listens = env.EIGHT_PORT ?? envPort;
      if (!ports.includes(String(listens))) out.push(`policy: the server listens on ${listens}, which is no container port`);
    }
  }
  return out;
}

// ---------------------------------------------------------------- modes

function runValid() {
  const files = inputs.flatMap(manifestFiles);
  const entries = load(files);
  const found = validate(entries);
  const objects = entries.filter((e) => e.doc).map((e) => e.doc.kind === "Kustomization" ? "Kustomization" : `${e.doc.kind}/${get(e.doc, "metadata", "name")}`);
  if (found.length > 0) {
    process.stdout.write(`INVALID: ${found.length} problem(s) in ${files.length} file(s):\n`);
    report(found);
    return 1;
  }
  process.stdout.write(`valid: ${objects.length} object(s) in ${files.length} file(s): ${objects.join(", ")}\n`);
  return 0;
}

// Each FILE must be rejected, with every "# expect: TEXT" of it among the reasons.
function runExpectInvalid() {
  let failures = 0;
  for (const file of inputs.flatMap(manifestFiles)) {
    const expects = [...fs.readFileSync(file, "utf8").matchAll(/^# expect: (.+)$/gm)].map((m) => m[1].trim());
    const found = validate(load([file]));
    const messages = found.map((f) => f.message);
    const missing = expects.filter((x) => !messages.some((m) => m.includes(x)));
    if (found.length === 0) {
      process.stdout.write(`NOT CAUGHT: ${file} was accepted\n`);
      ++failures;
    } else if (expects.length === 0 || missing.length > 0) {
      process.stdout.write(`WRONG REASON: ${file}: missing ${JSON.stringify(missing)} (or no "# expect:"); got:\n`);
      report(found);
      ++failures;
    } else {
      process.stdout.write(`rejected as expected: ${file} (${found.length} problem(s)):\n`);
      report(found);
    }
  }
  return failures === 0 ? 0 : 1;
}

// Known breakages of the valid manifests, each of which must be caught.
const breakages = [
  ["replicas as a string", "Deployment", (d) => { d.spec.replicas = "2"; }, "/spec/replicas must be integer"],
  ["one replica", "Deployment", (d) => { d.spec.replicas = 1; }, "replicas >= 2"],
  ["container without a name", "Deployment", (d) => { delete d.spec.template.spec.containers[0].name; }, "must have required property name"],
  ["port out of type", "Deployment", (d) => { d.spec.template.spec.containers[0].ports[0].containerPort = "8080"; }, "containerPort must be integer"],
  ["readiness on the wrong path", "Deployment", (d) => { d.spec.template.spec.containers[0].readinessProbe.httpGet.path = "/"; }, "readinessProbe must GET /readyz"],
  ["no liveness probe", "Deployment", (d) => { delete d.spec.template.spec.containers[0].livenessProbe; }, "needs a livenessProbe"],
  ["no memory limit", "Deployment", (d) => { delete d.spec.template.spec.containers[0].resources.limits.memory; }, "resources.limits.memory"],
  ["writable root filesystem", "Deployment", (d) => { d.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem = false; }, "readOnlyRootFilesystem"],
  ["root allowed", "Deployment", (d) => { delete d.spec.template.spec.securityContext.runAsNonRoot; delete d.spec.template.spec.containers[0].securityContext.runAsNonRoot; }, "runAsNonRoot"],
  ["a capability added", "Deployment", (d) => { d.spec.template.spec.containers[0].securityContext.capabilities.add = ["NET_ADMIN"]; }, "add no capabilities"],
  ["selector misses the pods", "Deployment", (d) => { d.spec.selector.matchLabels = { app: "other" }; }, "must select the pod template's labels"],
  ["Service selects nothing", "Service", (s) => { s.spec.selector = { "app.kubernetes.io/name": "nope" }; }, "selects no Deployment"],
  ["Service port of a bad protocol", "Service", (s) => { s.spec.ports[0].protocol = "HTTP"; }, "/spec/ports/0/protocol must be equal to one of the allowed values"],
  ["HPA aims at another Deployment", "HorizontalPodAutoscaler", (h) => { h.spec.scaleTargetRef.name = "other"; }, "scaleTargetRef"],
  ["HPA without maxReplicas", "HorizontalPodAutoscaler", (h) => { delete h.spec.maxReplicas; }, "must have required property maxReplicas"],
  ["PDB that blocks drains", "PodDisruptionBudget", (p) => { p.spec.maxUnavailable = 0; }, "blocks every drain"],
  ["runs as another user than the image's", "Deployment", (d) => { d.spec.template.spec.securityContext.runAsUser = 1000; }, "is not the image's USER", true],
  ["container port is not the image's", "Deployment", (d) => { d.spec.template.spec.containers[0].ports[0].containerPort = 9090; }, "the image's EXPOSE", true],
  ["unknown kind", "PodDisruptionBudget", (p) => { p.apiVersion = "policy/v1beta9"; }, "unknown apiVersion/kind"],
];

function runSelfTest() {
  const entries = load(inputs.flatMap(manifestFiles));
  const clean = validate(entries);
  if (clean.length > 0) {
    process.stdout.write("the manifests given to --self-test must be valid:\n");
    report(clean);
    return 1;
  }
  let failures = 0;
  const cases = breakages.filter(([, , , , needsDockerfile]) => !needsDockerfile || dockerfile);
  for (const [name, kind, mutate, expect] of cases) {
    const copy = entries.map((e) => ({ ...e, doc: JSON.parse(JSON.stringify(e.doc)) }));
    const victim = copy.find((e) => e.doc && e.doc.kind === kind);
    if (!victim) {
      process.stdout.write(`SKIPPED? no ${kind} to break for "${name}"\n`);
      ++failures;
      continue;
    }
    mutate(victim.doc);
    const found = validate(copy);
    const hit = found.find((f) => f.message.includes(expect));
    if (hit) {
      process.stdout.write(`caught: ${name}: ${hit.message}\n`);
    } else {
      process.stdout.write(`NOT CAUGHT: ${name} (wanted "${expect}"), got:\n`);
      report(found);
      ++failures;
    }
  }
  process.stdout.write(`${cases.length - failures} passed, ${failures} failed\n`);
  return failures === 0 ? 0 : 1;
}

process.exitCode = mode === "valid" ? runValid() : mode === "invalid" ? runExpectInvalid() : runSelfTest();
