/**
 * Infrastructure as typed Java code whose values know where they came from. A {@link dev.strata.sdk.Stack}
 * is the root of every {@link dev.strata.sdk.Lineage}: declarations made through it
 * ({@link dev.strata.sdk.Resource}, {@link dev.strata.sdk.DataSource}, {@link dev.strata.sdk.Variable},
 * locals, {@link dev.strata.sdk.Output}, {@link dev.strata.sdk.ModuleCall}, {@link dev.strata.sdk.Provider})
 * hand out {@link dev.strata.sdk.Value}s that either hold a literal or carry the reference path they came
 * from. Putting such a value into another declaration writes the reference ({@code "${aws_vpc.main.id}"}),
 * so Terraform infers the dependency; {@link dev.strata.sdk.Fn} composes values into function calls,
 * conditionals, templates and {@code for} expressions. {@link dev.strata.sdk.Stack#synthesize()} writes
 * Terraform's JSON syntax, deterministically, and reports each problem at the Java line that caused it.
 *
 * <pre>{@code
 * Stack stack = new Stack();
 * Resource vpc = stack.resource("aws_vpc", "main").arg("cidr_block", "10.0.0.0/16");
 * stack.resource("aws_subnet", "a").arg("vpc_id", vpc.attr("id"));
 * stack.writeTo(Path.of("out"));   // out/main.tf.json
 * }</pre>
 */
package dev.strata.sdk;
