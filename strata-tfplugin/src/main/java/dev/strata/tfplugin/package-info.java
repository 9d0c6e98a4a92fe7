/**
 * External Terraform providers: start a provider plugin ({@link dev.strata.tfplugin.PluginProcess},
 * go-plugin handshake with AutoMTLS), talk to it ({@link dev.strata.tfplugin.ProviderClient}), and
 * put it behind the provider SPI ({@link dev.strata.tfplugin.TerraformProvider}, one plugin process
 * per provider configuration, started lazily; provider-defined functions included).
 *
 * <p>Entry point for the engine: {@link dev.strata.tfplugin.InstalledProviders}, the
 * {@code ProviderSource} of the providers {@code strata init} installed for a working directory:
 *
 * <pre>{@code
 * ProviderSource source = ProviderSource.chain(ProviderRegistry.load(),
 *     InstalledProviders.forWorkingDirectory(dir));
 * try (Provider aws = source.resolve(dev.strata.addr.Provider.hashicorp("aws"), constraints).value().create()) {
 *     ProviderSchema schema = aws.schema();   // from the schema cache when warm: no process yet
 *     ...
 * }
 * }</pre>
 *
 * <p>{@link dev.strata.tfplugin.SchemaJson} writes schemas as {@code terraform providers schema -json}
 * does; {@link dev.strata.tfplugin.SchemaCache} keeps them on disk by package hash. Installation
 * (mirrors, CLI configuration, lock file) is in {@link dev.strata.tfplugin.install}.
 */
package dev.strata.tfplugin;
