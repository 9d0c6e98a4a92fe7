package dev.strata.cli.command;

import dev.strata.config.RemoteAccess;
import dev.strata.hcl.Result;
import dev.strata.tfplugin.install.CliConfig;

/**
 * How {@code init}, {@code get} and {@code stacks init} reach remote module sources: the CLI
 * configuration's {@code host} and {@code credentials} blocks (the file {@code TF_CLI_CONFIG_FILE}
 * names, else {@code ~/.terraformrc}) and the {@code TF_TOKEN_*} variables of the environment.
 */
public final class RemoteModuleAccess {
    private RemoteModuleAccess() {}

    /** The access for this command's environment; problems in the CLI configuration are diagnostics. */
    public static Result<RemoteAccess> of(CommandContext context) {
        Result<CliConfig.Hosts> hosts = CliConfig.loadHosts(context.env(), ProviderSetup.home(context));
        return Result.of(
                RemoteAccess.of(context.env())
                        .withConfig(hosts.value().services(), hosts.value().credentials()),
                hosts.diagnostics());
    }
}
