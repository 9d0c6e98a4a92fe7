/**
 * The Terraform Stacks language's static model. {@link dev.strata.stacks.config.StackLoader} reads a
 * stack directory's {@code .tfcomponent.hcl} files (with embedded stacks and component modules)
 * into a {@link dev.strata.stacks.config.StackConfig}; {@link dev.strata.stacks.config.DeploymentLoader}
 * reads its {@code .tfdeploy.hcl} files into a {@link dev.strata.stacks.config.DeploymentConfig};
 * {@link dev.strata.stacks.config.StackValidator} validates both statically. Expressions stay
 * strata-hcl ASTs with exact source ranges, evaluated by the runtime.
 */
package dev.strata.stacks.config;
