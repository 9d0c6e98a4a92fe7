/**
 * External Terraform providers: start a provider plugin ({@link dev.strata.tfplugin.PluginProcess},
 * go-plugin handshake with AutoMTLS) and talk to it ({@link dev.strata.tfplugin.ProviderClient}).
 *
 * <pre>{@code
 * Result<ProviderClient> r = ProviderClient.start(PluginLaunch.of("registry.terraform.io/hashicorp/aws", exe),
 *     Duration.ofMinutes(5));
 * try (ProviderClient aws = r.value()) {
 *     PluginResult<ProviderSchema> schema = aws.getProviderSchema();
 *     ...
 * }
 * }</pre>
 */
package dev.strata.tfplugin;
