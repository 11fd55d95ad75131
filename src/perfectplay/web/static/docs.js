/* The API reference, drawn from the server's own OpenAPI schema so that it can never drift
   from the routes, and served from this server alone (no CDN: it works offline). */

import { $, api, h, showError } from "./common.js";

/** The schema an OpenAPI reference points to ("#/components/schemas/SearchBody"). */
function resolve(schema, root) {
  if (!schema || !schema.$ref) return schema || {};
  return schema.$ref.split("/").slice(1).reduce((node, key) => node[key], root);
}

/** A short type name: "string", "integer | null", "object", "array of object". */
function typeName(schema, root) {
  const resolved = resolve(schema, root);
  if (resolved.anyOf) return resolved.anyOf.map((s) => typeName(s, root)).join(" | ");
  if (resolved.enum) return resolved.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (resolved.type === "array") return `array of ${typeName(resolved.items, root)}`;
  return resolved.type || resolved.title || "any";
}

function limits(schema) {
  const parts = [];
  for (const [key, label] of [["minimum", "≥"], ["exclusiveMinimum", ">"], ["maximum", "≤"], ["maxLength", "length ≤"], ["maxItems", "items ≤"]]) {
    if (schema[key] !== undefined) parts.push(`${label} ${schema[key]}`);
  }
  if (schema.default !== undefined && schema.default !== null) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
}

function fieldsTable(schema, root) {
  const body = resolve(schema, root);
  const required = new Set(body.required || []);
  const rows = Object.entries(body.properties || {}).map(([name, field]) =>
    h("tr", {},
      h("td", {}, h("code", {}, name), required.has(name) ? " *" : ""),
      h("td", {}, typeName(field, root)),
      h("td", { class: "muted" }, [field.description, limits(field)].filter(Boolean).join(" · "))));
  return h("table", { class: "docs-fields" },
    h("thead", {}, h("tr", {}, h("th", {}, "field"), h("th", {}, "type"), h("th", {}, "notes"))),
    h("tbody", {}, rows));
}

function parametersTable(parameters) {
  const rows = parameters.map((p) =>
    h("tr", {},
      h("td", {}, h("code", {}, p.name), p.required ? " *" : ""),
      h("td", {}, p.in),
      h("td", { class: "muted" }, limits(p.schema || {}))));
  return h("table", { class: "docs-fields" },
    h("thead", {}, h("tr", {}, h("th", {}, "parameter"), h("th", {}, "in"), h("th", {}, "notes"))),
    h("tbody", {}, rows));
}

/** Text from a docstring with its ``literal`` spans as <code> (never parsed as HTML). */
function richText(text) {
  return text.split(/``(.+?)``/s).map((part, i) => (i % 2 ? h("code", {}, part) : part));
}

function endpoint(path, method, operation, root) {
  const body = operation.requestBody?.content?.["application/json"]?.schema;
  const statuses = Object.keys(operation.responses || {}).join(", ");
  return h("section", { class: "card-box docs-endpoint", id: operation.operationId },
    h("h2", {}, h("span", { class: `docs-method docs-${method}` }, method.toUpperCase()), " ", h("code", {}, path)),
    h("p", {}, h("strong", {}, operation.summary || "")),
    operation.description ? h("p", { class: "docs-description" }, richText(operation.description)) : null,
    operation.parameters?.length ? parametersTable(operation.parameters) : null,
    body ? h("div", {}, h("h3", {}, "Body"), fieldsTable(body, root)) : null,
    h("p", { class: "muted" }, `Answers: ${statuses}`));
}

async function main() {
  const container = $("#endpoints");
  try {
    const schema = await api("/openapi.json", undefined, "GET");
    const sections = [];
    for (const [path, operations] of Object.entries(schema.paths)) {
      for (const [method, operation] of Object.entries(operations)) sections.push(endpoint(path, method, operation, schema));
    }
    container.replaceChildren(h("p", { class: "muted" }, `${schema.info.title} ${schema.info.version}: ${sections.length} endpoints.`), ...sections);
  } catch (error) {
    container.replaceChildren();
    showError(error);
  }
}

main();
