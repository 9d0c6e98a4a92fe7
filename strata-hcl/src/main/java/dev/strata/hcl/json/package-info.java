/**
 * HCL's JSON syntax ({@code .tf.json}) behind the syntax-free {@link dev.strata.hcl.Body} /
 * {@link dev.strata.hcl.Expression} model. Entry point: {@link dev.strata.hcl.json.JsonSyntax#parse}.
 *
 * <pre>{@code
 * Result<HclFile> f = JsonSyntax.parse(bytes, "main.tf.json");
 * Result<BodyContent> c = f.value().body().content(schema);
 * }</pre>
 *
 * <p>The package has its own JSON parser, because the specification needs what general JSON
 * libraries drop: property order, repeated property names, exact decimal numbers, and the source
 * position of every value and name. Expressions lower themselves to native-syntax trees
 * ({@link dev.strata.hcl.syntax.Expr}), with strings parsed as templates and their ranges carried
 * back into the JSON file, so evaluation understands one tree only.
 */
package dev.strata.hcl.json;
