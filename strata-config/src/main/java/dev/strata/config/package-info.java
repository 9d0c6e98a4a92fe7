/**
 * The Terraform language's static model: {@link dev.strata.config.ConfigLoader} reads a directory's
 * {@code .tf} and {@code .tf.json} files (override files merged by Terraform's rules) into a
 * {@link dev.strata.config.ModuleConfig}, and the root module with every module it calls into a
 * {@link dev.strata.config.ConfigTree} (local modules in place, others where
 * {@link dev.strata.config.ModuleInstaller} installed them, found through the
 * {@link dev.strata.config.ModuleManifest}). {@link dev.strata.config.Validator} checks a tree
 * statically (the validate phase: every value unknown), reporting each problem once per
 * configuration object. {@link dev.strata.config.InputVariables} computes the root module's variable
 * values from all of Terraform's sources, asking a {@link dev.strata.config.Prompter} for missing
 * required ones when the caller has one; {@link dev.strata.config.References} lists what each object
 * refers to, for the graph builder. {@link dev.strata.config.ReferenceScope} is the one evaluation
 * scope: it parses references and asks a phase's {@link dev.strata.config.ScopeData} for their
 * values; {@link dev.strata.config.ConfigData} is the data of a module's configuration alone (the
 * console).
 *
 * <pre>{@code
 * Result<ConfigTree> tree = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
 * Diagnostics problems = tree.diagnostics().with(Validator.validate(tree.value()));
 * }</pre>
 */
package dev.strata.config;
