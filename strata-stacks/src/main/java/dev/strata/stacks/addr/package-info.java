/**
 * Addresses of Stacks objects: embedded stacks (by configuration path and by instance path),
 * components and their instances, provider configuration blocks and deployments. Instance keys are
 * {@link dev.strata.addr.InstanceKey}s, shared with the modules language; renderings match
 * Terraform's ({@code stack.a["x"].component.b[0]}).
 */
package dev.strata.stacks.addr;
